/**
 * WebSocket messages, which the network hold cannot hold (README "Safety model"): Fetch sees neither a socket's
 * handshake nor its frames (a `new WebSocket()` during a hold reaches its server with Fetch on, Chromium 156), and
 * nothing else an extension has can pause a frame. What can be done honestly is to say what left: a message the
 * tab sends while its action acts that carries card data or a credential (network-judge.js messageReasons; what the task typed into a password
 * field too, network-secrets.js) is
 * reported in the action's result (`websocket_sent`), after it left. Read from Network.webSocketFrameSent: the
 * Network domain is on for every session tab (tabs/tab-log.js); a worker's sockets are not seen.
 */

import { bodyText, messageReasons } from "./network-judge.js";

/** How much of a message is read. */
const MAX_MESSAGE = 32 * 1024;

/** @typedef {{url?: string, why: string[]}} SentMessage `url`: the socket's, when it was opened during the action */

export class SocketMessages {
  /** @type {SentMessage[]} */
  #sent = [];
  /** @type {Map<string, string>} socket URLs by request id */
  #sockets = new Map();

  /**
   * Listen to a tab's sockets.
   * @param {{on: (tabId: number, method: string, fn: (params: any) => void) => () => void}} dbg
   * @param {number} tabId
   * @param {() => boolean} acting whether the action still acts (a message after it answered is not reported)
   * @param {() => string[]} [secrets] what the task typed into password fields (network-secrets.js secretForms)
   * @returns {(() => void)[]} unsubscribe
   */
  watch(dbg, tabId, acting, secrets = () => []) {
    return [
      dbg.on(tabId, "Network.webSocketCreated", (params) => this.#sockets.set(String(params.requestId), String(params.url ?? ""))),
      dbg.on(tabId, "Network.webSocketFrameSent", (params) => {
        if (acting()) this.#sentFrame(params, secrets());
      }),
    ];
  }

  /** The messages reported so far, and forget them. */
  take() {
    return this.#sent.splice(0);
  }

  /**
   * @param {any} params Network.webSocketFrameSent
   * @param {string[]} secrets
   */
  #sentFrame(params, secrets) {
    const frame = params.response ?? {};
    let payload = String(frame.payloadData ?? "");
    if (frame.opcode === 2) payload = bodyText({ postDataEntries: [{ bytes: payload }] });
    const why = messageReasons(payload.slice(0, MAX_MESSAGE), secrets);
    if (why.length === 0) return;
    const url = this.#sockets.get(String(params.requestId));
    this.#sent.push({ ...(url ? { url } : {}), why });
  }
}
