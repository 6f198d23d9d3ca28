/**
 * Where the CLI keeps a player's sessions between commands: `$XDG_CONFIG_HOME/sp-cli/sessions.json` (default
 * `~/.config/sp-cli/sessions.json`), one session cookie per server URL. A session cookie is a bearer credential
 * for 7 days, so the folder is created 0700 and the file written 0600 (through a temporary file renamed over it,
 * so a crash never leaves half a file), and rewritten 0600 whatever mode it had.
 */
import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

export interface StoredSession {
  /** `session=…`, as the server set it. */
  cookie: string;
  userId: string;
  wallet: string | null;
  savedAt: string;
}

interface SessionsFile {
  sessions: Record<string, StoredSession>;
}

export function sessionFilePath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME?.trim() || join(homedir(), ".config");
  return join(base, "sp-cli", "sessions.json");
}

function isStoredSession(v: unknown): v is StoredSession {
  if (typeof v !== "object" || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.cookie === "string" && o.cookie.startsWith("session=") && typeof o.userId === "string";
}

async function readSessions(file: string): Promise<SessionsFile> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { sessions: {} };
    throw err;
  }
  try {
    const parsed = JSON.parse(text) as { sessions?: Record<string, unknown> };
    const sessions: Record<string, StoredSession> = {};
    for (const [url, s] of Object.entries(parsed.sessions ?? {})) if (isStoredSession(s)) sessions[url] = s;
    return { sessions };
  } catch {
    // A damaged file holds no usable session; the next sign-in rewrites it.
    return { sessions: {} };
  }
}

async function writeSessions(file: string, content: SessionsFile): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, file);
}

export async function loadSession(file: string, url: string): Promise<StoredSession | null> {
  return (await readSessions(file)).sessions[url] ?? null;
}

export async function saveSession(file: string, url: string, session: StoredSession): Promise<void> {
  const content = await readSessions(file);
  content.sessions[url] = session;
  await writeSessions(file, content);
}

export async function forgetSession(file: string, url: string): Promise<void> {
  const content = await readSessions(file);
  if (!(url in content.sessions)) return;
  delete content.sessions[url];
  if (Object.keys(content.sessions).length === 0) await rm(file, { force: true });
  else await writeSessions(file, content);
}
