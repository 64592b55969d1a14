// Package urlfetch owns fetching the web pages that @url references name,
// and the files (packs of the on-disk index) that `ctxexpand index
// --from-pack URL` names, safely enough to run in CI next to secrets.
// [Fetcher.Fetch] turns a page into text; [Fetcher.Download] copies a
// file's bytes as they are, under the same rules and without the cache.
//
// # Safety
//
// A [Fetcher] speaks only http and https, to public addresses only. It
// resolves host names itself and refuses loopback, private (RFC 1918,
// fc00::/7), link-local (169.254.0.0/16, which holds the cloud metadata
// service, and fe80::/10), multicast, unspecified, shared (100.64.0.0/10),
// documentation, benchmarking, NAT64, 6to4 and other special-purpose
// ranges. The check runs inside the dialer, on every connection, including
// each redirect's, and the connection goes to the exact address that was
// checked, so a DNS answer that changes between check and use (DNS
// rebinding) cannot slip through; the dialer's Control hook checks the
// address once more at connect time. Proxies from the environment are not
// used, since a proxy would resolve names out of our sight. URLs carrying
// credentials are refused, and no cookies or credentials are ever sent.
//
// # Limits
//
// One fetch has a time limit (the whole exchange, redirects included), a
// size limit (1 MiB of body by default), a redirect limit and a per-host
// request budget for the lifetime of the Fetcher (one run). Only text-like
// content types are accepted (text/*, JSON, XML, JavaScript, YAML, TOML);
// HTML is turned into readable Markdown with
// github.com/JohannesKaufmann/html-to-markdown/v2, scripts and styles
// dropped.
//
// # Cache
//
// Pages are cached on disk (os.UserCacheDir()/ctxexpand/urlfetch unless
// told otherwise) for a TTL, keyed by URL. [Options.Disabled] refuses
// every fetch, cached or not, for --no-network runs.
package urlfetch
