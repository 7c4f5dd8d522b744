package dev.larch.bench.cli;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import com.unboundid.ldap.listener.InMemoryDirectoryServer;
import com.unboundid.ldap.listener.InMemoryDirectoryServerConfig;
import com.unboundid.ldap.listener.InMemoryListenerConfig;
import com.unboundid.ldap.listener.interceptor.InMemoryInterceptedSearchResult;
import com.unboundid.ldap.listener.interceptor.InMemoryOperationInterceptor;

/** An UnboundID in-memory server on a loopback port, loaded from an LDIF file; fine for harness tests. */
final class InMemoryServer implements AutoCloseable {
    static final String ADMIN_DN = "cn=admin,dc=example,dc=com";
    static final String ADMIN_PASSWORD = "secret";

    final InMemoryDirectoryServer server;
    private final AtomicLong searchesAnswered = new AtomicLong();

    InMemoryServer(Path ldif) throws Exception {
        this(ldif, new InMemoryOperationInterceptor[0]);
    }

    /** A server whose answers pass through {@code interceptors} too, e.g. to make it answer wrongly. */
    InMemoryServer(Path ldif, InMemoryOperationInterceptor... interceptors) throws Exception {
        InMemoryDirectoryServerConfig config = new InMemoryDirectoryServerConfig("dc=example,dc=com");
        config.addAdditionalBindCredentials(ADMIN_DN, ADMIN_PASSWORD);
        // Generated people carry {SSHA} passwords (their uid); binds as them check against those.
        config.setPasswordEncoders(null, new SshaPasswords());
        for (InMemoryOperationInterceptor interceptor : interceptors) {
            config.addInMemoryOperationInterceptor(interceptor);
        }
        config.setListenerConfigs(
                InMemoryListenerConfig.createLDAPConfig("ldap", InetAddress.getLoopbackAddress(), 0, null));
        config.addInMemoryOperationInterceptor(new InMemoryOperationInterceptor() {
            @Override
            public void processSearchResult(InMemoryInterceptedSearchResult result) {
                searchesAnswered.incrementAndGet();
            }
        });
        server = new InMemoryDirectoryServer(config);
        server.importFromLDIF(true, ldif.toFile());
        server.startListening();
    }

    /** Searches the server has finished, so a test can wait until a client is really at work. */
    long searchesAnswered() {
        return searchesAnswered.get();
    }

    int port() {
        return server.getListenPort();
    }

    @Override
    public void close() {
        server.shutDown(true);
    }
}
