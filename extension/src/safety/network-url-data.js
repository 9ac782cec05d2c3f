/**
 * Whether a URL can carry data the app's data-flow memory holds (app/safety/dataflow.py `url_pieces`): one
 * definition for the two places that decide without the app whether a URL needs its look — the new-tab rules
 * (network-new-tabs.js, declarativeNetRequest regexFilters, RE2) and a held tab's GETs to another host
 * (network-action-hold.js carriesAway). Either may say yes to more than the memory could hold (the app then finds
 * nothing and the request goes on; a new tab is loaded once more); neither may say no to anything it could hold
 * (bench/new_tab_paths.py checks that on the corpus's links).
 *
 * The memory holds, in a URL's userinfo, host labels, path, query and fragment: runs of 6+ digits, tokens of 8+
 * characters that are not plain words, and phrases (which need spaces: a percent-escape in a URL). A token is cut
 * at the URL's separators (`/ ? & = # + ; ,`) and at quotes and brackets; it is plain words when it is letters
 * joined one at a time by `. - _ '`, none upper-case right after a lower-case one. So a URL can carry data when it
 * has (one pattern each, since declarativeNetRequest refuses a regex whose RE2 program passes 2 KB, as one with all
 * of them, or with any 8-character window, does):
 * * a query or userinfo, a host label with six digits (dashes between them; dots not, so an IP address is no
 *   data), or a digit, an @ or a percent-escape in the path;
 * * in the path, a symbol no plain word has (`~ ! $ * : |`), two joiners in a row, or one that starts or ends a
 *   token;
 * * a host label before a dot with a digit and a letter, or a digit and a dash (`amay3952.blog.example`: the
 *   memory holds such a label as a token when it has 8 characters; the site's own label is no data to it, but a
 *   rule cannot tell the site apart, so it is matched too);
 * * a lower-case letter right before an upper-case one (`/go/qWmZbXkRt`: data by its letter case alone) — matched
 *   case-sensitively, and anywhere in the URL (its scheme and host are lower-case there), short tokens too: a
 *   window of 8 token characters round it is past the regex limit.
 */

const URL_START = "^[a-z][a-z0-9+.-]*://";

/**
 * @typedef {{regex: string, caseSensitive: boolean}} UrlDataPattern a regexFilter (RE2 and JavaScript alike)
 * @type {readonly UrlDataPattern[]}
 */
export const URL_DATA_PATTERNS = Object.freeze([
  { regex: `^[^#?]*[?][^#]|${URL_START}(?:[^/?#]*@|[^/?#]*[0-9](?:-?[0-9]){5}|[^/?#]*/[^?#]*[0-9@%])`, caseSensitive: false },
  { regex: `${URL_START}[^/?#]*/[^?#]*(?:[~!$*:|]|[-_.'][-_.']|[/;,+=&()'|][-_']|[-_'](?:[/;,+=&()'|#]|$))`, caseSensitive: false },
  { regex: `${URL_START}(?:[^/?#]*[.@])?(?:[a-z0-9-]*[a-z][a-z0-9-]*[0-9]|[a-z0-9-]*[0-9][a-z0-9-]*[a-z]|` +
      "[a-z0-9-]*(?:[0-9]-|-[0-9]))[a-z0-9-]*[.]", caseSensitive: false },
  { regex: "^[^?#]*[a-z][A-Z]", caseSensitive: true },
]);

const MATCHERS = URL_DATA_PATTERNS.map((p) => new RegExp(p.regex, p.caseSensitive ? "" : "i"));

/**
 * Whether `url` can carry data the data-flow memory holds (the same test as the new-tab rules').
 * @param {string} url a URL as the network sees it (its scheme and host lower-case)
 */
export function carriesData(url) {
  return MATCHERS.some((re) => re.test(url));
}
