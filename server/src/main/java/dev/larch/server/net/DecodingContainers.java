package dev.larch.server.net;

import org.apache.directory.api.ldap.codec.api.BinaryAttributeDetector;
import org.apache.directory.api.ldap.codec.api.DefaultConfigurableBinaryAttributeDetector;
import org.apache.directory.api.ldap.codec.api.LdapApiService;
import org.apache.directory.api.ldap.codec.api.LdapMessageContainer;
import org.apache.directory.api.ldap.model.message.Message;

/**
 * Makes the Apache decoder's containers (each client connection's, each replication session's, each stored
 * filter decoded), all sharing one binary-attribute detector.
 *
 * <p>The container's one-argument constructor builds a fresh {@link DefaultConfigurableBinaryAttributeDetector}
 * each time: it lower-cases some fifty attribute names into a concurrent set, which cost about 2% of the
 * server's CPU under the churn mix (one new connection per operation). The detector is only read once
 * built (its set is concurrent, and nothing here adds names to it), so one copy serves every connection
 * and decides exactly as a fresh one would.
 *
 * <p>Thread-safe; each container it makes is not, and belongs to one channel.
 */
public final class DecodingContainers {

    private static final BinaryAttributeDetector BINARY_ATTRIBUTES = new DefaultConfigurableBinaryAttributeDetector();

    private DecodingContainers() {}

    /** A new container for one connection's requests, decoded by {@code codec}. */
    public static LdapMessageContainer<Message> newContainer(LdapApiService codec) {
        return new LdapMessageContainer<>(codec, BINARY_ATTRIBUTES);
    }
}
