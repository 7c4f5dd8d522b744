package dev.larch.e2e.sync;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The server under test in the content-synchronization scenario: an RFC 4533 provider that
 * unmodified slapd consumers replicate from. Two implementations are meant to exist: slapd with the
 * syncprov overlay ({@link SlapdServer#provider}), which validates the harness, and Larch.
 *
 * <p>An implementation must:
 *
 * <ul>
 *   <li>hold the naming context {@code dc=example,dc=com} and, when {@link Starter#start} returns,
 *       serve exactly the entries of the initial LDIF (loaded offline, e.g. by {@code slapadd} or
 *       {@code ./larch import}), each with {@code entryUUID}, {@code entryCSN},
 *       {@code structuralObjectClass} and the four create/modify stamps, and listen on
 *       {@link #url()} on the loopback interface;
 *   <li>stamp every entryCSN with a server ID that its cookies carry a CSN for, no newer than
 *       that CSN: in a present phase slapd's consumer deletes a non-present entry only if the
 *       cookie covers the entry's entryCSN this way, and silently keeps it otherwise (slapadd
 *       without {@code -S} stamps server ID 0 while a {@code serverID 1} provider's cookies carry
 *       only 001: every delete was lost on refreshOnly consumers);
 *   <li>accept a simple bind as {@link #bindDn()}/{@link #password()} that may read every entry and
 *       every operational attribute with no size or time limit and may write every entry: the
 *       consumers replicate as this identity and the scenario makes its changes as it;
 *   <li>answer a Sync Request control (refreshOnly and refreshAndPersist) on a subtree search of the
 *       suffix as RFC 4533 and slapd's consumer expect it;
 *   <li>keep running until {@link #close()}, which stops it and frees its port.
 * </ul>
 */
public interface SyncProvider extends LdapEndpoint, AutoCloseable {
    /** Stops the server; it need not keep its data. */
    @Override
    void close() throws IOException;

    /** Creates a provider in an empty directory, loaded with a tree, and starts it. */
    @FunctionalInterface
    interface Starter {
        /**
         * Loads {@code initialLdif} (parents before children, the suffix entry first, no operational
         * attributes) into a new server whose files live under {@code dir}, starts it, and returns
         * once it answers LDAP requests.
         */
        SyncProvider start(Path dir, Path initialLdif) throws IOException;
    }
}
