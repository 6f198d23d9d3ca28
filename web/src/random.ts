/** randomKey(): 32 hex characters from the browser's CSPRNG (works outside secure contexts, unlike randomUUID). */
export function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}
