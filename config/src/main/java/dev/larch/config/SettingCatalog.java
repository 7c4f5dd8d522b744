package dev.larch.config;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every configuration key, declared once: name, kind of value and bounds, default, when a change
 * takes effect, whether it is a secret, and what it does. The shipped {@code config/larch.conf} and
 * {@code docs/configuration.md} are generated from it ({@link ConfFileRenderer},
 * {@link ReferenceRenderer}); a test fails when they are stale. The order here is the order of the
 * generated files: sections, then groups of keys sharing one description.
 *
 * <p>{@code index.<attribute>} keys form a family: the entries here are the default indexes, and any
 * attribute may be named.
 */
public final class SettingCatalog {
    /** The prefix of the index family of keys. */
    public static final String INDEX_PREFIX = "index.";

    /**
     * The keys of one certificate mapping rule, {@code tls.certificate-mapping.<N>.<field>}, as
     * declared (with {@code <N>} written literally); {@link #find} maps a numbered key to them.
     */
    public static final String MAPPING_RULE = "tls.certificate-mapping.<N>.";

    private static final Pattern NUMBERED_MAPPING_RULE = Pattern.compile("tls\\.certificate-mapping\\.[0-9]+\\.(.+)");

    /**
     * The keys of one replication consumer, {@code replication.consumer.<N>.<field>} with N its replica
     * ID, as declared (with {@code <N>} written literally); {@link #find} maps a numbered key to them.
     */
    public static final String CONSUMER = "replication.consumer.<N>.";

    private static final Pattern NUMBERED_CONSUMER = Pattern.compile("replication\\.consumer\\.[0-9]+\\.(.+)");

    /** An integer setting without an upper bound of its own. */
    private static final long INT_MAX = Integer.MAX_VALUE;

    /** The head of the generated config file, as plain text. */
    static final String PREAMBLE = """
            Larch configuration.

            Use it with:  ./larch serve --config config/larch.conf
            Without --config the server runs on exactly these values (they are the built-in defaults).

            Format: one "key = value" per line. Lines starting with # are comments. Keys and values are
            trimmed; there are no escapes or continuation lines, so backslashes and # inside a value are
            kept as written. A key may appear once. An unknown key or a bad value stops the server with a
            one-line message naming the key.
              sizes     digits with an optional binary unit: 4096, 512k, 10m, 64g, 1t
              booleans  true/false (also yes/no, on/off)
              paths     relative paths are resolved against the directory of this file""";

    /** A titled part of the config file. */
    public record Section(String title, List<Group> groups) {
        public Section {
            groups = List.copyOf(groups);
        }
    }

    /** Keys that share one description. */
    public record Group(String description, List<Setting> settings) {
        public Group {
            settings = List.copyOf(settings);
        }
    }

    static final List<Section> SECTIONS = List.of(
            section("", group("""
                            The DN of the naming context this server holds. The admin is cn=admin,<suffix>.""", text("suffix", "dc=example,dc=com"))),
            section(
                    "listen: where LDAP clients connect",
                    group("""
                            Address to bind; 0.0.0.0 accepts connections on every interface.""", text("listen.host", "127.0.0.1")),
                    group("""
                            TCP port, 0..65535 (0 picks any free port). --port overrides it.""", integer("listen.port", "1389", 0, 65_535)),
                    group("""
                            Event-loop threads; 0 means one per CPU core.""", integer("listen.io-threads", "0", 0, 1024)),
                    group("""
                            Largest LDAP message accepted; a client sending a bigger one is disconnected.""", size("listen.max-pdu-size", "10m", 1024, INT_MAX)),
                    group("""
                            Close a connection idle this many seconds (nothing read or written, no operation running);
                            0 never does. Clients that pool connections reconnect transparently.""", integer("listen.idle-timeout-seconds", "900", 0, INT_MAX)),
                    group("""
                            Deepest nesting of and/or/not in a search filter; deeper filters get protocolError.""", integer("listen.max-filter-depth", "100", 1, 10_000)),
                    group("""
                            Largest LDAP message accepted before a successful bind (and after a bind back to anonymous); the
                            smaller of this and max-pdu-size applies. Bigger ones get a Notice of Disconnection.""", size("listen.max-pdu-size-anonymous", "256k", 1024, INT_MAX)),
                    group("""
                            Requests of one connection read but not yet answered. At the limit the server stops reading from
                            that connection until one is answered: a client pipelining more is slowed down, never refused.
                            Requests are also held, not started, while the client is not reading the answers.""", integer("listen.max-pending-operations", "128", 1, 1_000_000)),
                    group(
                            """
                            Bytes of requests (their size as received) one connection may hold read but not yet answered, after
                            a bind and before one (or after a bind back to anonymous; the smaller applies); and all connections
                            together. At a limit the server stops reading from the connection until some are answered (or, for
                            the total, until others are): a client is slowed down, never refused. A connection holding nothing
                            may always send one request, so a client waiting for each answer is always served. Decoded requests
                            take a few times their size in heap: keep the total well under the heap (LARCH_HEAP, default 256m).""",
                            size("listen.max-pending-size", "16m", 1024, 1L << 40),
                            size("listen.max-pending-size-anonymous", "1m", 1024, 1L << 40),
                            size("listen.max-pending-size-total", "32m", 1024, 1L << 40)),
                    group(
                            """
                            Connections open at once, and from one client IP address; 0 means no limit. A connection over a
                            limit gets a Notice of Disconnection (busy) naming it and is closed; refusals are logged at most
                            every 10 seconds. Keep max-connections below the open-files limit (ulimit -n) of the server.""",
                            integer("listen.max-connections", "4096", 0, 10_000_000),
                            integer("listen.max-connections-per-address", "512", 0, 10_000_000)),
                    group("""
                            Most elements one search filter may have, counting and/or/not and every comparison: (|(cn=a)(cn=b))
                            has 3. Counted from the raw request before the filter is decoded; a larger filter is answered
                            adminLimitExceeded naming this key (the connection stays open). SSSD and group tools send ORs of
                            hundreds to a few thousand terms.""", integer("listen.max-filter-elements", "10000", 1, 10_000_000)),
                    group("""
                            Load balancers that send the PROXY protocol (as HAProxy's send-proxy / send-proxy-v2, AWS NLB, like
                            OpenLDAP's proxyp://): comma-separated addresses or CIDR networks, IPv4 or IPv6, e.g.
                            10.0.0.0/8, 2001:db8::/32. A connection from one of them must start with a PROXY header, v1 (text)
                            or v2 (binary), within 5 seconds; its source address is then the client's for connection limits,
                            failed-bind delays, rate quotas, ACI ip rules and the logs (a LOCAL header, as health checks send,
                            keeps the balancer's). A connection from them without a valid header is closed and logged as a
                            warning. Connections from other addresses are never read for a header. On both ports. Empty: off.""", words("listen.proxy-protocol-from", ""))),
            section(
                    "storage: the LMDB store",
                    group("""
                            Where the store and the generated admin password live. The default is "var" under the directory
                            the server is started from; set it here to pin it (relative to this file). --data overrides it.""", path("storage.data-dir", "var").shownCommentedOut()),
                    group("""
                            Most the store can ever hold. The file is sparse: this costs no disk until used. When it is
                            reached, writes get unwillingToPerform "store is full: raise storage.map-size"; a larger value
                            takes effect at the next start and keeps the data.""", size("storage.map-size", "64g", 1L << 20, Long.MAX_VALUE)),
                    group("""
                            Most concurrent read transactions (searches in flight). Searches waiting for slow clients may take
                            at most limits.max-paused-searches of them; the rest stay for everyone else.""", integer("storage.max-readers", "1024", 1, 1 << 20)),
                    group("""
                            Sync every acknowledged write to disk before answering. false is faster and can lose the most
                            recent writes on a crash (never corrupt the store).""", bool("storage.durable-writes", "true")),
                    group("""
                            Entries per write transaction during ./larch import.""", integer("storage.import-batch-entries", "10000", 1, 10_000_000)),
                    group("""
                            Index records ./larch import holds in memory when it loads into an empty store (a new data
                            directory): beyond this they are sorted and spilled to run files in a directory it creates inside
                            the data directory (about as many bytes on disk as the records take here; removed when the import
                            ends, whether it succeeds or fails), then merged into the indexes. Lowered to a third of the
                            import's heap when that is less. 0 writes each entry's index records as it goes (the path an
                            import into a store that already holds entries always takes). A replica's first refresh into an
                            empty store is loaded the same way, with at most a quarter of the server's heap (the store answers
                            no search, bind or write until it is done; docs/operations.md, replication); 0 applies that refresh
                            entry by entry, serving what has arrived as it goes.""", size("storage.import-sort-memory", "512m", 0, 1L << 40)),
                    group("""
                            A server that starts on an empty store (no entry at all: a new data directory) adds the suffix
                            entry in one transaction and logs it: dc=... as objectClass dcObject and organization (o = the dc
                            value), o=... as organization, ou=... as organizationalUnit. Another first RDN type stops the start:
                            add that suffix entry yourself (ldapadd or ./larch import) with this set to false. Never done on a
                            store that holds entries, so a suffix deleted on purpose stays deleted, and ./larch import into a
                            new data directory loads the LDIF's own suffix entry.""", bool("storage.create-suffix", "true")),
                    group("""
                            Group commit: writes that wait while a commit is under way (many clients writing at once) are
                            committed together, up to this many in one transaction, and share its one sync to disk; each still
                            succeeds or fails alone, and each is answered only once its transaction is durable. The writer
                            never waits to fill a transaction, so a lone write is not delayed. 1 commits every write alone.
                            Bounds: a transaction's changed pages (4 KiB each) stay in memory until its commit, at most about
                            131,000 of them (LMDB's limit, 512 MiB); a write that does not fit beside its batch-mates is run
                            again alone, so sharing never fails a write. 1..100000.""", integer("storage.group-commit-max-operations", "256", 1, 100_000))),
            section(
                    "limits: server-side search limits; clients may ask for less, never more. 0 = unlimited",
                    group("""
                            Most entries one search returns (then sizeLimitExceeded).""", integer("limits.size-limit", "500", 0, INT_MAX).reloaded()),
                    group(
                            """
                            Longest one search may run, in seconds (then timeLimitExceeded).""",
                            integer("limits.time-limit-seconds", "3600", 0, INT_MAX)
                                    .reloaded()),
                    group(
                            """
                            Most candidate entries one search may examine (then adminLimitExceeded naming this key); bounds
                            unindexed searches. IDs read from indexes while planning are counted too, on their own counter
                            against the larger of this and index-entry-limit, each index read costing at least 1: so one key
                            read within index-entry-limit always fits, and an entry is not counted twice (once as an index ID,
                            once as a candidate examined). Planning and examining also stop at the time limit and on abandon.""",
                            integer("limits.look-through-limit", "100000", 0, INT_MAX)
                                    .reloaded()),
                    group("""
                            Most entries one index key tracks; a value shared by more entries stops narrowing searches.""", integer("limits.index-entry-limit", "50000", 0, INT_MAX)),
                    group("""
                            Threads of the worker pool that keeps CPU-heavy work (password hashing of binds, searches that walk
                            their scope or have many candidates) off the event loops; 0 means one per CPU core.""", integer("limits.worker-threads", "0", 0, 1024)),
                    group("""
                            Most tasks waiting for a worker beyond those running. When it is full a bind or a long search is
                            answered busy ("the server is busy; try again later") rather than queued without bound.""", integer("limits.worker-queue", "1024", 0, 1_000_000)),
                    group("""
                            Whether cn=admin is held to size-limit, time-limit-seconds and look-through-limit too. false (the
                            default, as OpenLDAP's rootdn and 389-DS's Directory Manager) exempts the administrator, so that
                            ldapsearch -D cn=admin,<suffix> reads the whole tree; the client's own limits still apply. true
                            holds the administrator to them like everyone.""", bool("limits.apply-to-admin", "false").reloaded()),
                    group("""
                            A search whose client stops reading waits, holding a read transaction (an LMDB reader slot and the
                            old pages it pins). After this many seconds of waiting it ends with timeLimitExceeded and frees them;
                            the search's own time limit also runs while it waits. At least 1; there is no "unbounded".""", integer("limits.paused-search-seconds", "60", 1, 86_400)),
                    group("""
                            Most searches across the server that may wait for their clients at once. A search that would wait
                            beyond it ends busy ("too many searches are waiting for their clients to read"); the rest of
                            storage.max-readers stays free for other clients' searches, compares and binds. Must be less than
                            storage.max-readers.""", integer("limits.max-paused-searches", "512", 1, INT_MAX)),
                    group("""
                            Most searches across the server that may run long at once: those that walk their scope (no index
                            narrows them) or have more than 256 candidates. Up to 4,096 candidates they stream on their event
                            loop, in turns with every other request; walks, sorts and larger ones run on the worker pool. Each
                            holds a read transaction while it runs; a search that would run long beyond it ends busy ("too many
                            long searches are running").
                            max-paused-searches + max-long-searches must be less than storage.max-readers.""", integer("limits.max-long-searches", "256", 1, INT_MAX)),
                    group("""
                            Simple paged results (RFC 2696). A paged search keeps nothing open between pages, no read
                            transaction and no result set: only its cookie and where to resume, a few hundred bytes. Each page
                            is a search of its own for the limits: limits.size-limit caps the page size (a larger requested page
                            is cut to it), limits.look-through-limit and limits.time-limit-seconds apply per page. A client's
                            sizeLimit counts over all pages, as RFC 2696 says.
                            Most paged searches one connection may leave open between pages; opening one more forgets the
                            oldest, whose cookie is then refused (unwillingToPerform).""", integer("limits.max-paged-searches-per-connection", "16", 1, 1024)),
                    group("""
                            Most entries one paged search returns over all its pages (sizeLimitExceeded past it); 0 = no limit,
                            so any client may page through the whole directory as far as the access rules let it see.""", integer("limits.paged-size-limit", "0", 0, INT_MAX)),
                    group("""
                            Server-side sort (RFC 2891): the most matching entries one sort orders. A sort keeps each matching
                            entry's ID and sort keys (about 120 bytes per entry, never the entry) until the search ends, and runs
                            as a long search (limits.max-long-searches bounds how many at once). One entry more ends the search
                            with adminLimitExceeded, the administrator's too. Sorting with paged results sorts again per page.""", integer("limits.max-sort-entries", "20000", 1, 10_000_000)),
                    group("""
                            Persistent search (draft-ietf-ldapext-psearch-03, with entry change notification): any client may
                            ask; each notification is screened by the access rules exactly as a search result. A persistent
                            search waiting for changes holds no read transaction, only its request and its queue.
                            Most persistent searches waiting for changes across the server, 1..100000; one more is answered
                            adminLimitExceeded naming this key. Each also takes one of the 8 operations a connection runs at once.""", integer("limits.max-persistent-searches", "1000", 1, 100_000)),
                    group("""
                            Most notifications one persistent search may have waiting while its client does not read,
                            1..1000000 (each is one entry as the client would receive it). One more closes that client's
                            connection at once: the server never buffers without bound nor slows its writer for a slow reader.""", integer("limits.persistent-search-queue", "1000", 1, 1_000_000)),
                    group(
                            """
                            Rate quotas (token buckets), off at 0. Operations per second one bound identity may run over all
                            its connections, and one client IP address over all of its connections. Anonymous sessions have no
                            identity: only the per-address quota holds them. Binds count against the per-address quota. Every
                            other request counts against both (abandon and unbind never count). Beyond a quota a request is
                            answered busy, "rate limit of N operations per second per client address exceeded
                            (limits.rate-per-address)", and the access log shows it. 0..1000000.""",
                            integer("limits.rate-per-identity", "0", 0, 1_000_000),
                            integer("limits.rate-per-address", "0", 0, 1_000_000)),
                    group("""
                            A quiet client may spend this many seconds' worth of operations at once (the bucket's size); the
                            bucket refills at the rate. 1..3600. Each quota tracks at most 65536 identities or addresses (about
                            100 bytes each, so under 7 MiB per quota); those beyond share one bucket until idle ones are dropped.""", integer("limits.rate-burst-seconds", "1", 1, 3600)),
                    group("""
                            Hold the administrator (cn=admin,<suffix>) to the quotas too; by default a session bound as the
                            administrator is exempt. Its own bind counts against the per-address quota: who binds is known only
                            once the bind succeeds.""", bool("limits.rate-apply-to-admin", "false"))),
            section(
                    "security",
                    group("""
                            Password of cn=admin,<suffix>, cleartext or hashed ({SSHA256}..., as produced by slappasswd).
                            Empty means not set: then LARCH_ADMIN_PASSWORD is used, else a password generated on first start,
                            printed once and stored hashed in <data-dir>/admin-password.""", secret("security.admin-password")),
                    group("""
                            Accept binds against userPassword values stored without a {SCHEME} prefix (cleartext).""", bool("security.allow-cleartext-passwords", "false")),
                    group("""
                            Scheme for passwords the server hashes (userPassword in add, modify and Password Modify): SSHA,
                            SSHA256, SSHA512, PBKDF2-SHA256 or ARGON2 (Argon2id). The salted SHA-2 schemes are fast to check
                            and so fast to guess; see docs/security.md for binds per second with each scheme.""", choice("security.password-scheme", "PBKDF2-SHA256", Security.SUPPORTED_SCHEMES)),
                    group("""
                            Highest iteration count of a stored {PBKDF2...} hash a bind will compute (new hashes use 100000).
                            A stored value beyond it is refused with invalidCredentials and a WARN naming the entry, so a
                            planted hash cannot pin a core. 1..10000000.""", integer("security.max-password-iterations", "1000000", 1, 10_000_000)),
                    group("""
                            Failed binds are answered late: the first failure on a DN from a client address waits this many
                            milliseconds, each further failure of that DN from that address doubles it, up to the maximum
                            below. A DN gets the same growing delay from every address once it has failed more than 10 binds
                            (from anywhere). A record forgotten after 60 quiet seconds starts over; a successful bind clears
                            its DN. No thread waits: the answer is scheduled. At most 10000 DNs, 10000 DN-address pairs and
                            10000 addresses are remembered (least recently failed forgotten first). Until the delay has
                            passed, a new bind on that DN (from that address) waits for it too.
                            0 turns the slowing off.""", integer("security.bind-failure-delay-ms", "200", 0, 60_000)),
                    group("""
                            Longest delay of a failed bind, in milliseconds.""", integer("security.bind-failure-max-delay-ms", "5000", 0, 60_000)),
                    group("""
                            Password checks are admitted per account as binds arrive: once one has failed, the account's
                            checks run one at a time, each after the previous failure's delay, and a lock (pwdMaxFailure) is
                            decided before the next check, so parallel binds cannot outrun it (more than 64 waiting binds of
                            one account are answered busy). The administrator (cn=admin,<suffix>) is locked, in memory, after
                            this many failed binds, 0..1000; 0 = never. Its lock refuses even the right password (as a locked
                            account's) until admin-lockout-seconds pass, or, when that is 0, until the server restarts.""", integer("security.admin-max-failures", "5", 0, 1_000)),
                    group("""
                            How long the administrator's lock lasts, in seconds, 0..31536000; 0 = until a restart.""", integer("security.admin-lockout-seconds", "0", 0, Passwords.MAX_ADMIN_LOCKOUT_SECONDS)),
                    group("""
                            After a successful bind, re-hash a userPassword stored in another scheme or at another cost
                            ({SSHA}, fewer PBKDF2 iterations) with security.password-scheme, through the write queue.""", bool("security.rehash-on-bind", "true")),
                    group("""
                            A client address with failed binds in the last 60 seconds may have this many binds with a password
                            check in progress (until the answer is sent, its delay included), 1..1024; further binds from it
                            are answered busy at once, without hashing, whether their DN exists or not. IPv6 addresses are
                            counted per prefix of ipv6-prefix-bits. An address alone is never delayed: the delays above apply
                            per account and per account and address, so one guesser does not slow everyone behind its NAT.""", integer("security.suspect-checks-per-address", "2", 1, 1_024)),
                    group("""
                            Such binds in progress for all failing addresses together, 0..1024; 0 = 8 per worker thread (at
                            least suspect-checks-per-address), so that clients without failures keep most of the workers.""", integer("security.suspect-checks-total", "0", 0, 1_024)),
                    group("""
                            Prefix length by which IPv6 clients count as one address (delays, the limits above), 32..128.""", integer("security.ipv6-prefix-bits", "64", 32, 128))),
            section(
                    "tls: StartTLS, LDAPS, client certificates and SASL",
                    group("""
                            With a certificate the plain port offers StartTLS (1.3.6.1.4.1.1466.20037); listen.ldaps-port adds a
                            port that speaks TLS from the first byte. TLS 1.2 and 1.3 only, ECDHE with AES-GCM or ChaCha20 only.
                            BoringSSL (netty-tcnative) is used where it loads, the JDK's TLS otherwise; the start-up line says
                            which. A missing or unreadable file stops the server with one line naming the key and the file.
                            ./larch cert --host NAME writes a self-signed pair to try it.
                            Port of the LDAPS listener, on listen.host; 0 = no LDAPS. Needs a certificate.""", integer("listen.ldaps-port", "0", 0, 65_535)),
                    group("""
                            Refuse simple binds that carry a password on a clear (non-TLS) connection with confidentialityRequired,
                            except from a loopback address (127.0.0.0/8, ::1), so that local tools work without TLS.""", bool("security.require-tls-for-binds", "true")),
                    group("""
                            The security strength (key bits of the TLS cipher: 128 for AES-128, 256 for AES-256 and ChaCha20)
                            a connection needs for every operation but bind, StartTLS and reading the root DSE; below it they
                            are refused with confidentialityRequired (as OpenLDAP's olcSecurity ssf= and 389-DS's
                            nsslapd-minssf). A connection without TLS has 0, loopback included. 0 = no requirement.""", integer("security.min-ssf", "0", 0, Access.MAX_SSF)),
                    group("""
                            false: anonymous binds are refused (inappropriateAuthentication, as OpenLDAP's olcDisallows
                            bind_anon), and so is every operation of a session that has not bound, except bind, StartTLS and
                            reading the root DSE (strongerAuthRequired, as olcRequires authc).""", bool("security.allow-anonymous", "true")),
                    group(
                            """
                            The server certificate chain (PEM, own certificate first) and its private key (PEM). Set both or neither.""",
                            optionalPath("tls.certificate").reloadedWithTls(),
                            optionalPath("tls.private-key").reloadedWithTls()),
                    group(
                            """
                            Or a PKCS#12 keystore with the key and its chain, and its password (empty = none).""",
                            optionalPath("tls.keystore").reloadedWithTls(),
                            secret("tls.keystore-password").reloadedWithTls()),
                    group("""
                            PEM bundle of the authorities whose client certificates are accepted. When set, TLS clients are asked
                            (not required) for a certificate and SASL EXTERNAL is offered; when empty, no certificate is asked for.
                            Also the authorities a replication provider's certificate must chain to (start-tls or ldaps://).""", optionalPath("tls.ca-certificates").reloadedWithClientCertificates()),
                    group("""
                            true: a TLS client without a certificate from tls.ca-certificates fails the handshake (LDAPS and
                            StartTLS alike), as 389-DS's nsSSLClientAuth: required. Needs tls.ca-certificates.""", bool("tls.require-client-certificate", "false")),
                    group("""
                            Certificate revocation lists (PEM or DER files, comma-separated) of the authorities in
                            tls.ca-certificates: a client certificate they revoke fails the handshake. When set, every
                            authority that issues client certificates needs its CRL here (a certificate whose revocation
                            cannot be decided is refused); no CRL is fetched over the network. Read at start. Empty = none.""", paths("tls.crl-files")),
                    group("""
                            Seconds a TLS handshake may take; a slower client is disconnected. 1..300.""", integer("tls.handshake-timeout-seconds", "10", 1, 300)),
                    group("""
                            SASL EXTERNAL binds as the entry whose DN equals the client certificate's subject DN; failing that, as
                            the one entry under the suffix whose <this attribute> equals the subject's UID (else its CN) value.
                            Looked up through the attribute's equality index only (never a scan); no match or more than one is
                            invalidCredentials. "none" maps by the subject DN alone. This built-in mapping trusts every authority
                            in tls.ca-certificates for every entry (the server warns at start); it is used only when no numbered
                            rule below is set.""", text("tls.certificate-mapping", "uid")),
                    group(
                            """
                            Mapping rules, tls.certificate-mapping.<N>.<field>, N = 1..99 (as 389-DS's certmap.conf, OpenLDAP's
                            authz-regexp and OpenDJ's certificate mappers). Rules are tried in the order of N; the first rule
                            whose issuer covers the certificate and that applies to it decides, later rules are not tried. Its
                            lookup must find exactly one entry under the suffix, through an equality index (never a scan, at most
                            8 candidates): none, several, or no rule that applies is invalidCredentials ("the client certificate
                            maps to no entry"; the reason is logged), after the same failed-bind delay as a wrong password.
                              .issuer = DN of the certificate's issuer, compared case- and space-insensitively (CN=Example CA,
                                        O=Example), or any. Default any. Every rule should name one where several authorities are
                                        trusted: a name means something only if no other trusted authority can sign a CA of that name.
                              .kind   = subject-attribute: the value of the first subject attribute in .subject-attribute the
                                                 subject has (most specific RDN first) equals .entry-attribute of the entry.
                                                 Applies when the subject has one of them.
                                                 .subject-attribute = uid, cn (default; cn, uid, emailAddress, serialNumber, ou, o,
                                                 dc, c, l, st, street, or a dotted OID); .entry-attribute = uid (default).
                                        subject-dn: .subject-pattern (a Java regular expression, default .*) must match the WHOLE
                                                 subject DN, printed as RFC 4514 does: most specific RDN first, CN UID OU O DC C L ST
                                                 STREET EMAILADDRESS SERIALNUMBER in upper case, other types as dotted OIDs, no spaces
                                                 after commas, values escaped (UID=alice,OU=People,O=Example). Applies when it matches.
                                                 Then either .entry-dn, a DN with $0..$9 for the pattern's groups inserted as written
                                                 in the subject (default $0: the subject is the entry's DN), or .entry-filter, a
                                                 filter with $0..$9 inserted as unescaped, filter-escaped values, that needs an
                                                 equality item on an attribute with an equality index, alone or in a top-level (&...).
                                                 $$ is a literal $. ([^,+]+) captures one RDN value; (?i) ignores case.
                                                 A match may read at most 10^6 characters (a backtracking pattern
                                                 maps nobody); subjects longer than 2048 characters map nobody.
                                        certificate: the entry whose userCertificate holds the presented certificate (DER, byte for
                                                 byte); another certificate with the same subject maps nobody. Needs
                                                 index.userCertificate = equality. Applies to every certificate of its issuer.
                              .verify-certificate = true: the entry found must also hold the presented certificate in
                                        userCertificate (for subject-attribute and subject-dn). Default false.
                            Example: staff certificates by uid, checked against the entry; partners by a subject pattern.
                              tls.certificate-mapping.1.issuer = CN=Staff CA,O=Example
                              tls.certificate-mapping.1.kind = subject-attribute
                              tls.certificate-mapping.1.subject-attribute = uid
                              tls.certificate-mapping.1.verify-certificate = true
                              tls.certificate-mapping.2.issuer = CN=Partner CA,O=Partner
                              tls.certificate-mapping.2.kind = subject-dn
                              tls.certificate-mapping.2.subject-pattern = CN=([^,]+),OU=Support,O=Partner
                              tls.certificate-mapping.2.entry-dn = uid=$1,ou=partners,dc=example,dc=com
                            Each field's default (commented out: a rule needs its number):""",
                            text(MAPPING_RULE + "issuer", "any").shownCommentedOut(),
                            text(MAPPING_RULE + "kind", "").shownCommentedOut(),
                            words(MAPPING_RULE + "subject-attribute", "uid, cn").shownCommentedOut(),
                            text(MAPPING_RULE + "entry-attribute", "uid").shownCommentedOut(),
                            text(MAPPING_RULE + "subject-pattern", ".*").shownCommentedOut(),
                            text(MAPPING_RULE + "entry-dn", "$0").shownCommentedOut(),
                            text(MAPPING_RULE + "entry-filter", "").shownCommentedOut(),
                            bool(MAPPING_RULE + "verify-certificate", "false").shownCommentedOut())),
            section(
                    "password policy (draft-behera-ldap-password-policy)",
                    group("""
                            DN of the pwdPolicy entry that governs every entry without its own pwdPolicySubentry (lockout,
                            quality, history, expiry, must-change after a reset). Empty: no default policy, so only entries
                            naming a policy in pwdPolicySubentry are governed. See "Password policy" in docs/security.md and
                            config/password-policy.ldif for an example entry. Policies are read from the directory, cached
                            (at most 256) and re-read after any write to a cached policy entry.""", text("security.default-password-policy", ""))),
            section(
                    "stored passwords",
                    group("""
                            A userPassword value that already carries a known {SCHEME} prefix ({SSHA}, {PBKDF2-SHA256}, {ARGON2},
                            ...) is stored as given when the administrator writes it (migrations) and this is true; from
                            anyone else, or from everyone when false, it is refused with constraintViolation. Other values are
                            hashed with security.password-scheme. ./larch import stores every value as the LDIF gives it (as
                            slapadd does) and warns once with the number of cleartext ones: hash those before importing.""", bool("security.allow-prehashed-passwords", "true")),
                    group("""
                            Iterations of new {PBKDF2-SHA256} hashes, 1000..10000000; existing hashes keep their own count.""", integer("security.pbkdf2-iterations", "100000", 1_000, 10_000_000)),
                    group(
                            """
                            Cost of new {ARGON2} (Argon2id, $argon2id$v=19$m=..,t=..,p=..$salt$hash as OpenLDAP's pw-argon2
                            writes): memory in KiB, passes (t) and lanes (p, 1..16; computed on one thread).""",
                            integer("security.argon2-memory-kib", "19456", 8, 4 * 1024 * 1024),
                            integer("security.argon2-passes", "2", 1, 1_000),
                            integer("security.argon2-parallelism", "1", 1, Passwords.MAX_ARGON2_PARALLELISM)),
                    group(
                            """
                            The most a stored {ARGON2} hash may ask for when a bind checks it; beyond either bound the bind
                            fails as for a wrong password, with a WARN naming the entry, so a planted hash cannot eat the heap
                            or pin a core. Each worker thread may hold max-argon2-memory-kib of heap while it checks.""",
                            integer("security.max-argon2-memory-kib", "65536", 8, 4 * 1024 * 1024),
                            integer("security.max-argon2-passes", "10", 1, 1_000))),
            section(
                    "logging",
                    group("""
                            One line per completed operation (connection, operation, DN, filter, result, entries, time).""", bool("logging.access-log", "true").reloaded()),
                    group("""
                            TRACE, DEBUG, INFO, WARN, ERROR or OFF.""", choice("logging.level", "INFO", Logging.LEVELS).reloaded()),
                    group("""
                            How access lines are written: text (conn=7 op=2 SEARCH base="..." ...) or json (one JSON object per
                            line with typed fields: time, conn, op, type, dn/base, scope, filter, attrs, result, text, entries,
                            etime_us, client; assertion values on password attributes are *** in both).""", choice("logging.access-log-format", "text", Logging.ACCESS_LOG_FORMATS)),
                    group("""
                            Write access lines to this file instead of standard output (empty: standard output). The file rolls
                            over daily and whenever it reaches logging.access-log-max-file-size; rolled files are kept as
                            FILE.yyyy-mm-dd.N (FILE.yyyy-mm-dd.N.gz with logging.access-log-compress) for
                            logging.access-log-max-history days, and within logging.access-log-max-total-size. A relative path
                            is resolved against this file's directory.""", optionalPath("logging.access-log-file")),
                    group("""
                            Size at which the access log file rolls over (k, m, g units; at least 1k).""", size("logging.access-log-max-file-size", "100m", 1024, Long.MAX_VALUE)),
                    group("""
                            Days of rolled-over access log files kept (1..36500).""", integer("logging.access-log-max-history", "7", 1, 36_500)),
                    group("""
                            The most disk the rolled-over access log files may take together; past it the oldest are deleted
                            at the next roll-over (k, m, g units; 0: no cap, only logging.access-log-max-history). Rolled files
                            are not compressed by default, so this keeps a busy server's logs from filling the disk.""", size("logging.access-log-max-total-size", "10g", 0, Long.MAX_VALUE)),
                    group("""
                            Gzip rolled-over access log files (FILE.yyyy-mm-dd.N.gz), on a background thread at each roll-over.
                            Off by default, as in 389-DS: at 50,000 operations a second gzip took about 3% of the server's CPU,
                            a cost logging with it switched off does not have. Switching it leaves the files rolled before under
                            the other name, outside the history and the total size; remove them by hand.""", bool("logging.access-log-compress", "false")),
                    group(
                            """
                            Access lines waiting at most for the access log's writer thread (16..1048576). A request's thread only
                            puts its line into this queue; one thread writes the lines in batches to the file or standard output
                            and flushes whenever it has caught up, then lets lines gather for 5 ms: a line appears at most 5 ms
                            after the writer caught up, and a busy server writes many lines per system call. When the queue is
                            full, requests wait for the output (no line is lost) and the server log says so at WARN. Memory: about
                            0.5 KiB a line (the default holds about 2 MiB; lines with values cut at 2048 characters, up to a few
                            KiB each).""",
                            integer(
                                    "logging.access-log-queue-lines",
                                    "4096",
                                    Logging.MIN_ACCESS_LOG_QUEUE_LINES,
                                    1 << 20)),
                    group(
                            """
                            The audit log: one LDIF change record per successful add, modify, delete, modify DN and password
                            change, headed by a comment naming when, who (the bound DN, and the proxied authorization
                            identity), from which address and connection; password values are written as ***. Separate from
                            the access log, created rw-------, rolled over daily and at logging.audit-log-max-file-size,
                            gzipped, kept logging.audit-log-max-history days. Empty = no audit log (and no cost).""",
                            optionalPath("logging.audit-log-file"),
                            size("logging.audit-log-max-file-size", "100m", 1024, Long.MAX_VALUE),
                            integer("logging.audit-log-max-history", "30", 1, 36_500))),
            section(
                    "tracing",
                    group("""
                            Per-operation tracing with OpenTelemetry: one span per operation (connection, message ID, operation,
                            DN, filter shape with password values masked, search plan, entries returned, result code), exported
                            over OTLP/HTTP (protobuf) to this collector, e.g. http://127.0.0.1:4318 (spans go to /v1/traces).
                            Empty (the default): tracing is off and costs nothing; no tracer is even created.""", text("tracing.otlp-endpoint", "")),
                    group("""
                            The service.name resource attribute of every span.""", text("tracing.service-name", "larch")),
                    group("""
                            Share of operations traced, 0.0..1.0.""", ratio("tracing.sample-ratio", "1.0")),
                    group("""
                            Spans waiting for export at most (batched on a background thread, never on an I/O thread). When the
                            collector is slow or down, spans beyond this are dropped, so tracing's memory stays bounded (about
                            1 KiB a span: the default holds a few MiB).""", integer("tracing.max-queue-size", "2048", 1, 1_000_000))),
            section(
                    "metrics: cn=Monitor and the Prometheus endpoint",
                    group("""
                            Count connections, operations (per type and result code), entries, bytes, latencies and index
                            lookups, and answer the read-only cn=Monitor subtree (OpenLDAP back-monitor layout; the root DSE
                            names it in monitorContext). Only the administrator may read cn=Monitor unless access.file has a
                            rule whose target names it, e.g. (target = "ldap:///cn=Monitor")(targetattr = "*")(version 3.0;
                            acl "monitoring"; allow (read, search) userdn = "ldap:///uid=nagios,ou=people,dc=example,dc=com";)
                            false: no counting at all, no cn=Monitor, no endpoint.""", bool("metrics.monitor", "true")),
                    group("""
                            TCP port of the Prometheus endpoint: GET /metrics (the same numbers plus latency histograms per
                            operation), /health (200 while alive) and /ready (200 when the store is open and the LDAP listener
                            accepts, else 503). 0 = no endpoint. Without metrics.bearer-token-file it asks for no credentials:
                            bind it to a private or loopback address and firewall it so that only the monitoring system
                            reaches it. Four threads serve it; a request not received whole within 5 s is dropped.""", integer("metrics.port", "0", 0, 65_535)),
                    group("""
                            Address the endpoint binds; empty = listen.host.""", text("metrics.host", "")),
                    group("""
                            A file holding a token (at least 16 characters; the first line counts) that every request to the
                            endpoint, /health and /ready included, must send as "Authorization: Bearer TOKEN" (Prometheus:
                            authorization: { credentials_file: ... }); others get 401. Read at start. Empty = no authentication.""", optionalPath("metrics.bearer-token-file"))),
            section(
                    "indexes: index.<attribute> = kinds",
                    group(
                            """
                            Kinds: equality, presence, substring, ordering. "none" (or nothing) removes a default index.
                            Attributes not listed are not indexed; searches on them walk the search scope.""",
                            index("objectClass", "equality"),
                            index("uid", "equality, substring"),
                            index("mail", "equality, substring"),
                            index("cn", "equality, substring"),
                            index("sn", "equality, substring"),
                            index("givenName", "equality, substring"),
                            index("member", "equality"),
                            index("uniqueMember", "equality"),
                            index("manager", "equality"),
                            index("secretary", "equality")),
                    group("""
                            memberOf is stored (kept by the server with every group change); this index answers (memberOf=G)
                            and (memberOf:1.2.840.113556.1.4.1941:=G) without walking the scope.""", index("memberOf", "equality")),
                    group("""
                            The stamps of content synchronization: entryUUID names an entry whatever its DN becomes (what a
                            replication consumer finds an entry by), entryCSN the change that last wrote it. What changed since
                            a CSN, in CSN order, the change log answers (replication.changelog-max-changes).""", index("entryUUID", "equality"), index("entryCSN", "equality"))),
            section("schema", group("""
                            Extra schema files in OpenLDAP .schema format (attributetype / objectclass), comma-separated,
                            loaded after the standard core, cosine, inetorgperson and nis schemas. See schema/README.md.
                            Example: schema.files = ../schema/examples/larch-example.schema""", paths("schema.files"))),
            section("access control", group("""
                            The global access rules: a file of ACIs (389-DS / OpenDJ syntax, one per line), relative to this
                            file. They cover what no entry holds (the root DSE, cn=Subschema) and are the base every aci value
                            in the directory adds to. Empty means the built-in rules, which are exactly access.aci next to
                            this file: anyone may read, search and compare everything but userPassword, authPassword and
                            pwdHistory; users may change their own userPassword; only the administrator writes otherwise.
                            A missing file or a rule that does not parse stops the server with one line naming this key,
                            the file and the line. Example: access.file = access.aci""", text("access.file", "").reloaded())),
            section(
                    "integrity",
                    group("""
                            Referential integrity: DN-valued attributes kept pointing at existing entries. Deleting an entry
                            removes its DN from these attributes of every entry holding it, renaming it (or an ancestor)
                            renames it there, in the same transaction as the delete or rename. A group that would lose its last
                            member keeps the empty DN as member, so it stays valid. Each needs an equality index (index.<name>).""", words("integrity.reference-attributes", "member, uniqueMember, manager, secretary")),
                    group("""
                            Attribute uniqueness: no two entries of the suffix may share a value of these attributes; an add,
                            modify or rename that would is refused with constraintViolation (the other entry is not named).
                            Each needs an equality index. Empty for none. ./larch import does not check it (like slapadd).""", words("integrity.unique-attributes", "uid, mail"))),
            section("server start", group("""
                            Self-warm-up: before it opens listen.port (and listen.ldaps-port) the server runs read-only searches
                            drawn from its own store (base searches of entries that exist, equality and prefix searches on
                            indexed attributes, one-level searches under their parents) through its own connection pipeline and
                            handlers, over loopback connections only it can make, until the JIT compilers have gone quiet (at
                            most 100 ms of compiling in the last 2 s, after at least 3 s), so that the JVM has compiled the
                            request path before the first client arrives. This is the most time it may take; a larger store and
                            fewer cores make it take longer (see "Memory and warm-up" in docs/operations.md for what it
                            buys).
                            The searches never write, are not in the access log, the operation counters or cn=Monitor, and use
                            no rate quota. A store with few or no entries ends sooner (each search is sent at most 100 times).
                            One log line says what was done and why it ended; a failure is logged and the server opens its port
                            anyway. The port opens (and "Larch listening" is printed) after it. 0 turns it off. 0..600.""", integer("server.warm-up-seconds", "30", 0, WarmUp.MAX_SECONDS))),
            section(
                    "replication: content synchronization (RFC 4533, OpenLDAP's syncrepl)",
                    group("""
                            This server's ID, 1..4095, in the CSN (entryCSN) of every change it makes and in the cookies it
                            sends consumers. Every server of a replicated set needs its own. Changing it later is safe: CSNs
                            already stamped keep the old ID.""", integer("replication.server-id", "1", 1, Replication.MAX_SERVER_ID)),
                    group(
                            """
                            The change log: every add, modify, rename and delete, kept so that a consumer whose cookie is
                            recent gets only what changed since (a delete phase). It is trimmed as it grows, to at most this
                            many changes and to changes at most this old (0: no bound of that kind); a consumer whose cookie
                            is older than the oldest change kept gets a full refresh instead (a present phase, or
                            e-syncRefreshRequired when it did not set the reload hint). Each change takes about 70 bytes of
                            the store.""",
                            integer("replication.changelog-max-changes", "1000000", 0, INT_MAX),
                            integer("replication.changelog-max-age-seconds", "604800", 0, INT_MAX)),
                    group("""
                            The bind DN replication consumers use when it is not the administrator, empty for none. Its sync
                            searches are not held to the search limits (size, time, look-through), as the administrator's
                            are not, so a refresh of the whole tree can finish; they still count against
                            limits.max-long-searches and limits.max-persistent-searches. It reads only what access control
                            lets it: give it read and search on everything it replicates, for example on the suffix entry
                            aci: (targetattr = "*")(version 3.0; acl "replication"; allow (read, search)
                            userdn = "ldap:///cn=replicator,dc=example,dc=com";)""", text("replication.consumer-dn", "")),
                    group("""
                            true: this server accepts writes while it consumes from providers (a multi-provider member; give every
                            member its own replication.server-id). false: a consumer is a read-only replica and refers writes to
                            its provider.""", bool("replication.multi-provider", "false")),
                    group("""
                            A change from a provider whose CSN is more than this many seconds ahead of this server's clock is
                            refused (the session logs it and retries) rather than applied: one server with a clock far ahead
                            would otherwise win every later conflict. 300 s is the skew Kerberos tolerates by default, far
                            beyond what NTP-kept clocks drift. 1..86400.""", integer("replication.max-clock-skew-seconds", "300", 1, 86_400)),
                    group(
                            """
                            Consumers, replication.consumer.<N>.<field>, N = the replica ID (rid), 1..999, distinct per provider
                            (as slapd's syncrepl stanzas): each pulls the whole suffix from one provider (RFC 4533 sync search,
                            base = suffix, filter (objectClass=*), attributes * and +) and keeps it in step.
                              .provider-url       = ldap://host:port or ldaps://host:port (required)
                              .bind-dn            = the DN the session binds as (required); it must be able to read everything
                              .bind-password      = its password, or
                              .bind-password-file = a file holding it (read at start; a final newline is dropped); exactly one
                              .mode               = refreshAndPersist (changes follow as they happen) or refreshOnly (a search
                                                    every .interval-seconds)
                              .interval-seconds   = refreshOnly: seconds between the end of one search and the next, 1..86400
                              .start-tls          = true: StartTLS before the bind (not with ldaps://). The provider's certificate
                                                    is checked against tls.ca-certificates and the URL's host name either way.
                              .retry-seconds      = after a failure, wait this long before reconnecting; doubled after each
                                                    failure up to .max-retry-seconds; retried forever
                            Example:
                              replication.consumer.1.provider-url = ldap://provider.example.com:389
                              replication.consumer.1.bind-dn = cn=replicator,dc=example,dc=com
                              replication.consumer.1.bind-password-file = /etc/larch/replicator.secret
                              replication.consumer.1.start-tls = true
                            Each field's default (commented out: a consumer needs its number):""",
                            text(CONSUMER + "provider-url", "").shownCommentedOut(),
                            text(CONSUMER + "bind-dn", "").shownCommentedOut(),
                            secret(CONSUMER + "bind-password").shownCommentedOut(),
                            optionalPath(CONSUMER + "bind-password-file").shownCommentedOut(),
                            choice(CONSUMER + "mode", "refreshAndPersist", List.of("refreshAndPersist", "refreshOnly"))
                                    .shownCommentedOut(),
                            integer(CONSUMER + "interval-seconds", "60", 1, 86_400)
                                    .shownCommentedOut(),
                            bool(CONSUMER + "start-tls", "false").shownCommentedOut(),
                            integer(CONSUMER + "retry-seconds", "5", 1, 86_400).shownCommentedOut(),
                            integer(CONSUMER + "max-retry-seconds", "300", 1, 86_400)
                                    .shownCommentedOut())));

    private static final Map<String, Setting> BY_KEY = index();

    private SettingCatalog() {}

    /** The sections in file order. */
    public static List<Section> sections() {
        return SECTIONS;
    }

    /** Every declared setting, in file order (the default indexes included). */
    public static List<Setting> all() {
        return List.copyOf(BY_KEY.values());
    }

    /** The declared setting of a key; for {@code index.<attribute>}, the family's declaration. */
    public static Optional<Setting> find(String key) {
        Matcher rule = NUMBERED_MAPPING_RULE.matcher(key);
        if (rule.matches()) {
            return Optional.ofNullable(BY_KEY.get(MAPPING_RULE + rule.group(1)));
        }
        Matcher consumer = NUMBERED_CONSUMER.matcher(key);
        if (consumer.matches()) {
            return Optional.ofNullable(BY_KEY.get(CONSUMER + consumer.group(1)));
        }
        Setting s = BY_KEY.get(key);
        if (s == null && key.startsWith(INDEX_PREFIX) && key.length() > INDEX_PREFIX.length()) {
            s = BY_KEY.get(INDEX_PREFIX + "objectClass");
            s = new Setting(
                    key,
                    SettingType.INDEX_KINDS,
                    "",
                    false,
                    0,
                    0,
                    List.of(),
                    Setting.Apply.RESTART,
                    false,
                    s.description());
        }
        return Optional.ofNullable(s);
    }

    /** The declared setting of a key the code reads; a key missing here is a programming error. */
    static Setting declared(String key) {
        return find(key)
                .orElseThrow(() -> new IllegalStateException("no setting " + key + " is declared in SettingCatalog"));
    }

    /** The keys (not the index family) and their defaults as a config file writes them. */
    static Map<String, String> defaults() {
        Map<String, String> values = new LinkedHashMap<>();
        for (Setting s : BY_KEY.values()) {
            values.put(s.key(), s.defaultValue());
        }
        return Collections.unmodifiableMap(values);
    }

    private static Map<String, Setting> index() {
        Map<String, Setting> byKey = new LinkedHashMap<>();
        for (Section section : SECTIONS) {
            for (Group group : section.groups()) {
                for (Setting s : group.settings()) {
                    if (byKey.put(s.key(), s) != null) {
                        throw new IllegalStateException("setting declared twice: " + s.key());
                    }
                }
            }
        }
        return Collections.unmodifiableMap(byKey);
    }

    private static Section section(String title, Group... groups) {
        return new Section(title, Arrays.asList(groups));
    }

    private static Group group(String description, Setting... settings) {
        List<Setting> described = new ArrayList<>();
        for (Setting s : settings) {
            described.add(s.describedAs(description));
        }
        return new Group(description, described);
    }

    private static Setting integer(String key, String value, long min, long max) {
        return new Setting(
                key, SettingType.INTEGER, value, false, min, max, List.of(), Setting.Apply.RESTART, false, "");
    }

    private static Setting size(String key, String value, long min, long max) {
        return new Setting(key, SettingType.SIZE, value, false, min, max, List.of(), Setting.Apply.RESTART, false, "");
    }

    private static Setting bool(String key, String value) {
        return plain(key, SettingType.BOOLEAN, value);
    }

    private static Setting choice(String key, String value, List<String> choices) {
        return new Setting(key, SettingType.CHOICE, value, false, 0, 0, choices, Setting.Apply.RESTART, false, "");
    }

    private static Setting text(String key, String value) {
        return plain(key, SettingType.TEXT, value);
    }

    private static Setting secret(String key) {
        return new Setting(key, SettingType.TEXT, "", false, 0, 0, List.of(), Setting.Apply.RESTART, true, "");
    }

    private static Setting path(String key, String value) {
        return plain(key, SettingType.PATH, value);
    }

    private static Setting optionalPath(String key) {
        return plain(key, SettingType.OPTIONAL_PATH, "");
    }

    private static Setting paths(String key) {
        return plain(key, SettingType.PATH_LIST, "");
    }

    private static Setting words(String key, String value) {
        return plain(key, SettingType.WORD_LIST, value);
    }

    private static Setting ratio(String key, String value) {
        return plain(key, SettingType.RATIO, value);
    }

    private static Setting index(String attribute, String kinds) {
        return plain(INDEX_PREFIX + attribute, SettingType.INDEX_KINDS, kinds);
    }

    private static Setting plain(String key, SettingType type, String value) {
        return new Setting(key, type, value, false, 0, 0, List.of(), Setting.Apply.RESTART, false, "");
    }
}
