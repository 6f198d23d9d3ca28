/**
 * Reads a JSON file given on the command line, `-` meaning standard input (a heredoc); a missing file or bad JSON
 * is a one-line AppError.
 */
import { readFile } from "node:fs/promises";
import { text as readAll } from "node:stream/consumers";
import { AppError } from "../errors.js";

export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = path === "-" ? await readAll(process.stdin) : await readFile(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new AppError("NOT_FOUND", `File ${path} not found`);
    throw new AppError("VALIDATION_FAILED", `Cannot read ${path}: ${code ?? String(err)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new AppError("VALIDATION_FAILED", `${path} is not valid JSON: ${(err as Error).message}`);
  }
}
