package dev.larch.bench.run;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;

/**
 * Where the load goes and how to authenticate; opens connections the way every worker does.
 *
 * @param host server host
 * @param port server port
 * @param bindDn DN to bind as, or null for anonymous
 * @param bindPassword password for {@code bindDn}
 * @param responseTimeoutMillis how long one request may take before it counts as a timeout
 */
public record ServerTarget(String host, int port, String bindDn, String bindPassword, long responseTimeoutMillis) {

    public String address() {
        return host + ":" + port;
    }

    /**
     * Connects and binds ({@code bindDn} or anonymous simple bind). Synchronous mode: no reader
     * thread per connection, which matters with hundreds of workers on a two-core load generator.
     *
     * @throws LDAPException with the server's result code if connecting or binding fails
     */
    public LDAPConnection open() throws LDAPException {
        LDAPConnectionOptions options = new LDAPConnectionOptions();
        options.setUseSynchronousMode(true);
        options.setConnectTimeoutMillis(5_000);
        options.setResponseTimeoutMillis(responseTimeoutMillis);
        LDAPConnection conn = new LDAPConnection(options, host, port);
        try {
            conn.bind(bindDn == null ? "" : bindDn, bindDn == null ? "" : bindPassword);
            return conn;
        } catch (LDAPException e) {
            conn.close();
            throw e;
        }
    }
}
