/**
 * Reads a non-negative integer setting from the environment: unset or empty gives `fallback`;
 * anything else that is not a whole number >= 0 stops the start with the variable's name.
 */
export function envInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name}: expected a non-negative integer, got "${value}"`);
  return n;
}
