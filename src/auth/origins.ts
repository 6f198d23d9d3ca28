/**
 * Where the service may be signed in from (SPEC §12): the SIWE domains a message may name and the origins allowed
 * to send cookie-authenticated writes. Explicit lists (SIWE_DOMAINS or the old SIWE_DOMAIN, APP_ORIGINS) are used
 * as given; otherwise both default to `localhost:<port>` and `127.0.0.1:<port>` of the port the server actually
 * listens on (PORT=0 picks one at listen time, so the defaults are read then, not at start-up), plus the host of
 * PUBLIC_URL when set. Domains are compared in lower case (a host is case-insensitive).
 */

export interface OriginSettings {
  /** SIWE_DOMAINS (or SIWE_DOMAIN) as configured, lower case; null: the defaults. */
  siweDomains: string[] | null;
  /** APP_ORIGINS as configured; null: the defaults. */
  appOrigins: string[] | null;
  /** PUBLIC_URL: the address players open, e.g. behind a proxy; null when unset. */
  publicUrl: string | null;
}

/** The default SIWE domains for a listening port. */
export function defaultDomains(port: number, publicUrl: string | null): string[] {
  const own = [`localhost:${port}`, `127.0.0.1:${port}`];
  const pub = publicUrl ? new URL(publicUrl).host.toLowerCase() : null;
  return pub && !own.includes(pub) ? [...own, pub] : own;
}

/** The default app origins for a listening port. */
export function defaultOrigins(port: number, publicUrl: string | null): string[] {
  const own = [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
  const pub = publicUrl ? new URL(publicUrl).origin : null;
  return pub && !own.includes(pub) ? [...own, pub] : own;
}

/**
 * The domain a client should sign for: the request's Host when it is an accepted domain (the page signs for the
 * address it was opened on), otherwise the first accepted domain.
 */
export function domainToSign(accepted: readonly string[], host: string | undefined): string {
  const h = host?.trim().toLowerCase();
  return h && accepted.includes(h) ? h : accepted[0]!;
}

/** The accepted domains and origins of a running service, following the port it listens on. */
export class SignInOrigins {
  private memo: { port: number; domains: string[]; origins: string[] } | null = null;

  /** `port()` answers the port listened on (the configured PORT until the server listens). */
  constructor(
    private readonly settings: OriginSettings,
    private readonly port: () => number,
  ) {}

  private current() {
    const port = this.port();
    if (this.memo?.port !== port) {
      this.memo = {
        port,
        domains: this.settings.siweDomains ?? defaultDomains(port, this.settings.publicUrl),
        origins: this.settings.appOrigins ?? defaultOrigins(port, this.settings.publicUrl),
      };
    }
    return this.memo;
  }

  /** The domains an EIP-4361 message may name. */
  domains(): string[] {
    return this.current().domains;
  }

  /** The origins allowed to send cookie-authenticated writes (and to be a message's `uri`). */
  origins(): string[] {
    return this.current().origins;
  }

  acceptsDomain(domain: string): boolean {
    return this.domains().includes(domain.toLowerCase());
  }

  /** See domainToSign. */
  domainFor(host: string | undefined): string {
    return domainToSign(this.domains(), host);
  }
}
