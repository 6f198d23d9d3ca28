/** A logger that keeps its lines (level, bindings, details, message) for tests to read: a JobLogger and an OpLog. */
export interface CapturedLine {
  level: "info" | "warn" | "error";
  message: string;
  [key: string]: unknown;
}

export interface CaptureLog {
  lines: CapturedLine[];
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
  child(bindings: Record<string, unknown>): CaptureLog;
}

export function captureLog(lines: CapturedLine[] = [], bindings: Record<string, unknown> = {}): CaptureLog {
  const write = (level: CapturedLine["level"]) => (details: object, message: string) => {
    lines.push({ ...bindings, ...details, level, message });
  };
  return {
    lines,
    info: write("info"),
    warn: write("warn"),
    error: write("error"),
    child: (more) => captureLog(lines, { ...bindings, ...more }),
  };
}
