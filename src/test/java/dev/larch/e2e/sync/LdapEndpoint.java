package dev.larch.e2e.sync;

import java.net.URI;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;

/**
 * A directory server the sync tests talk to: where it listens and an identity that may read (and,
 * on a provider, write) the whole replicated subtree with no size or time limit.
 */
public interface LdapEndpoint {
    /** A short name for failure messages ("provider", "consumer refreshAndPersist"). */
    String name();

    /** {@code ldap://127.0.0.1:PORT}, as a syncrepl stanza's {@code provider=} takes it. */
    String url();

    String bindDn();

    String password();

    /** An endpoint whose coordinates do not change. */
    static LdapEndpoint of(String name, String url, String bindDn, String password) {
        record Fixed(String name, String url, String bindDn, String password) implements LdapEndpoint {}
        return new Fixed(name, url, bindDn, password);
    }

    /** A new connection bound as {@link #bindDn()}; the caller closes it. */
    default LDAPConnection connect() throws LDAPException {
        URI uri = URI.create(url());
        LDAPConnectionOptions options = new LDAPConnectionOptions();
        options.setConnectTimeoutMillis(5_000);
        options.setResponseTimeoutMillis(120_000);
        return new LDAPConnection(options, uri.getHost(), uri.getPort(), bindDn(), password());
    }
}
