// The recruiting back office's data: 40 candidates, generated deterministically.
const FIRST = ["Jane", "Omar", "Li", "Priya", "Carlos", "Amara", "Tom", "Sofia", "Kenji", "Nadia"];
const LAST = ["Doe", "Haddad", "Wei", "Raman", "Mendes", "Okafor", "Berg", "Rossi", "Sato", "Novak"];
const ROLES = ["Backend engineer", "Product designer", "Data analyst", "Support lead", "QA engineer"];
const STAGES = ["Applied", "Screening", "Interview", "Offer"];

export const CANDIDATES = Array.from({ length: 40 }, (_, i) => {
  const first = FIRST[i % FIRST.length];
  const last = LAST[(i * 3 + Math.floor(i / FIRST.length)) % LAST.length];
  const handle = `${first}.${last}`.toLowerCase();
  return {
    id: i + 1,
    name: `${first} ${last}`,
    role: ROLES[i % ROLES.length],
    stage: STAGES[i % STAGES.length],
    email: `${handle}${i + 1}@example.org`,
    phone: `+44 20 7946 ${String(1000 + i * 37).slice(-4)}`,
    city: ["London", "Leeds", "Bristol", "Glasgow"][i % 4],
  };
});
