package dev.larch.server.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.naming.AuthenticationException;
import javax.naming.CommunicationException;
import javax.naming.Context;
import javax.naming.NameNotFoundException;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.directory.Attribute;
import javax.naming.directory.Attributes;
import javax.naming.directory.SearchControls;
import javax.naming.directory.SearchResult;
import javax.naming.ldap.InitialLdapContext;
import javax.naming.ldap.LdapContext;
import javax.naming.ldap.StartTlsRequest;
import javax.naming.ldap.StartTlsResponse;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocketFactory;

/**
 * A bound LDAP connection for the command line's reads, through the JDK's JNDI (no client library on
 * the server's class path). Each failure is a {@link Failure} whose message names the problem in one
 * line: nobody answers, the bind is refused, or the server failed the read.
 *
 * <p>Not thread-safe; close it.
 */
final class LdapReads implements AutoCloseable {
    private static final String CONNECT_TIMEOUT_MILLIS = "5000";
    private static final String READ_TIMEOUT_MILLIS = "15000";

    private final LdapContext context;
    private final StartTlsResponse tls;

    private LdapReads(LdapContext context, StartTlsResponse tls) {
        this.context = context;
        this.tls = tls;
    }

    /** A failure to connect, bind or read, in one line. */
    static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;

        /** Whether nobody answered at the URL (as opposed to a refusal or a failed read). */
        private final boolean unreachable;

        Failure(String message, boolean unreachable, Throwable cause) {
            super(message, cause);
            this.unreachable = unreachable;
        }

        boolean unreachable() {
            return unreachable;
        }
    }

    /**
     * Connects to {@code url} ({@code ldap://} or {@code ldaps://}), optionally with StartTLS, and binds
     * as {@code dn}. The server's certificate, over LDAPS or StartTLS, is checked against the JVM's trust
     * store, or against {@code trusted} when not null ({@code tls.ca-certificates}); its name against the
     * URL's host either way.
     */
    static LdapReads bind(String url, boolean startTls, String dn, String password, SSLSocketFactory trusted)
            throws Failure {
        @SuppressWarnings("JdkObsolete") // JNDI takes its environment as a Hashtable
        Hashtable<String, Object> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, "com.sun.jndi.ldap.LdapCtxFactory");
        env.put(Context.PROVIDER_URL, url);
        env.put("com.sun.jndi.ldap.connect.timeout", CONNECT_TIMEOUT_MILLIS);
        env.put("com.sun.jndi.ldap.read.timeout", READ_TIMEOUT_MILLIS);
        env.put(Context.REFERRAL, "ignore");
        env.put(Context.SECURITY_AUTHENTICATION, "none");
        if (trusted != null && url.regionMatches(true, 0, "ldaps:", 0, 6)) {
            TrustedLdapsSockets.use(trusted);
            env.put("java.naming.ldap.factory.socket", TrustedLdapsSockets.class.getName());
        }
        LdapContext context;
        try {
            context = new InitialLdapContext(env, null);
        } catch (NamingException e) {
            if (refusedByTls(e)) {
                throw new Failure("TLS with " + url + " failed (" + reason(e) + ")", false, e);
            }
            throw new Failure("nothing answers LDAP on " + url + " (" + reason(e) + ")", true, e);
        }
        StartTlsResponse tls = null;
        try {
            if (startTls) {
                tls = (StartTlsResponse) context.extendedOperation(new StartTlsRequest());
                if (trusted == null) {
                    tls.negotiate();
                } else {
                    tls.negotiate(trusted);
                }
            }
            context.addToEnvironment(Context.SECURITY_AUTHENTICATION, "simple");
            context.addToEnvironment(Context.SECURITY_PRINCIPAL, dn);
            context.addToEnvironment(Context.SECURITY_CREDENTIALS, password);
            context.reconnect(null);
            return new LdapReads(context, tls);
        } catch (AuthenticationException e) {
            closeQuietly(context);
            throw new Failure(url + " refused the bind as " + dn + " (" + reason(e) + ")", false, e);
        } catch (CommunicationException e) {
            closeQuietly(context);
            throw new Failure("lost " + url + " while binding (" + reason(e) + ")", true, e);
        } catch (NamingException | IOException e) {
            closeQuietly(context);
            throw new Failure(url + ": the bind as " + dn + " failed (" + reason(e) + ")", false, e);
        }
    }

    /** The values of {@code attribute} of entry {@code dn}; none when the entry or the attribute is absent. */
    List<String> values(String dn, String attribute) throws Failure {
        try {
            return strings(context.getAttributes(dn, new String[] {attribute}).get(attribute));
        } catch (NameNotFoundException e) {
            return List.of();
        } catch (NamingException e) {
            throw new Failure("reading " + attribute + " of " + dn + " failed (" + reason(e) + ")", false, e);
        }
    }

    /**
     * The entries one level below {@code base} matching {@code filter}, each as attribute name to
     * first value, with {@code attributes} asked for by name.
     */
    List<Map<String, String>> children(String base, String filter, String... attributes) throws Failure {
        SearchControls controls = new SearchControls();
        controls.setSearchScope(SearchControls.ONELEVEL_SCOPE);
        controls.setReturningAttributes(attributes);
        List<Map<String, String>> out = new ArrayList<>();
        try {
            NamingEnumeration<SearchResult> results = context.search(base, filter, controls);
            while (results.hasMore()) {
                Attributes found = results.next().getAttributes();
                Map<String, String> entry = new LinkedHashMap<>();
                for (String name : attributes) {
                    List<String> values = strings(found.get(name));
                    if (!values.isEmpty()) {
                        entry.put(name, values.get(0));
                    }
                }
                out.add(entry);
            }
        } catch (NamingException e) {
            throw new Failure("searching " + base + " failed (" + reason(e) + ")", false, e);
        }
        return out;
    }

    private static List<String> strings(Attribute attribute) throws NamingException {
        List<String> out = new ArrayList<>();
        if (attribute != null) {
            NamingEnumeration<?> all = attribute.getAll();
            while (all.hasMore()) {
                Object value = all.next();
                out.add(
                        value instanceof byte[] bytes
                                ? new String(bytes, StandardCharsets.UTF_8)
                                : String.valueOf(value));
            }
        }
        return out;
    }

    /** Whether a TLS handshake failed (an untrusted certificate, a wrong name): something did answer. */
    private static boolean refusedByTls(Exception e) {
        Throwable cause = e;
        for (int depth = 0; cause != null && depth < 10; depth++) {
            if (cause instanceof SSLException) {
                return true;
            }
            cause = cause.getCause();
        }
        return false;
    }

    /** JNDI's message, with the root cause's when it wraps one (a refused connection, a timeout). */
    private static String reason(Exception e) {
        Throwable root = e;
        int depth = 0;
        while (root.getCause() != null && depth++ < 10) {
            root = root.getCause();
        }
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return depth == 0 || root.getMessage() == null ? message : message + ": " + root.getMessage();
    }

    private static void closeQuietly(LdapContext context) {
        try {
            context.close();
        } catch (NamingException ignored) {
            // Closing after a failure: nothing more to report.
        }
    }

    @Override
    public void close() {
        if (tls != null) {
            try {
                tls.close();
            } catch (IOException ignored) {
                // The connection goes anyway.
            }
        }
        closeQuietly(context);
    }
}
