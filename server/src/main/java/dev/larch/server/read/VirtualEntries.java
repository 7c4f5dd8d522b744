package dev.larch.server.read;

import java.util.List;

import dev.larch.server.directory.SchemaNormalizer;
import dev.larch.server.entry.EntryCodec;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.protocol.AbsoluteFilters;
import dev.larch.server.search.ResultEntries;
import dev.larch.server.store.DnTree;
import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * The entries the server answers for without storing them: the root DSE (RFC 4512 section 5.1)
 * and the subschema subentry. Built once at start-up.
 */
public final class VirtualEntries {
    public static final String WHO_AM_I_OID = "1.3.6.1.4.1.4203.1.11.3";
    /** RFC 4511 §4.14; offered only when the server has a certificate. */
    public static final String START_TLS_OID = "1.3.6.1.4.1.1466.20037";
    /** The password policy control (draft-behera section 6). */
    public static final String PASSWORD_POLICY_CONTROL_OID = "1.3.6.1.4.1.42.2.27.8.5.1";
    /** Cancel (RFC 3909), answered by the connection's dispatcher. */
    public static final String CANCEL_OID = "1.3.6.1.1.8";
    /** Password Modify (RFC 3062), answered by the write package's PasswordModifyHandler. */
    public static final String PASSWORD_MODIFY_OID = "1.3.6.1.4.1.4203.1.11.1";
    /** RFC 3673 all operational attributes, RFC 4525 modify-increment, RFC 4526 absolute true and false filters. */
    private static final String[] FEATURES = {"1.3.6.1.4.1.4203.1.5.1", "1.3.6.1.1.14", AbsoluteFilters.FEATURE_OID};

    private final StoredEntry rootDse;
    private final StoredEntry subschema;
    private final Dn subschemaDn;

    /**
     * @param subschema the subschema subentry as the schema module renders it
     */
    public VirtualEntries(SchemaNormalizer schemaNormalizer, Dn suffix, String version, Entry subschema) {
        this(
                schemaNormalizer,
                suffix,
                version,
                subschema,
                List.of(WHO_AM_I_OID, PASSWORD_MODIFY_OID),
                List.of(),
                List.of(PASSWORD_POLICY_CONTROL_OID),
                null);
    }

    /**
     * @param extensions the extended operations offered, listed in {@code supportedExtension}
     * @param saslMechanisms the SASL mechanisms a bind may use, listed in {@code supportedSASLMechanisms}
     *     (the attribute is absent when there are none)
     * @param controls the controls offered, listed in {@code supportedControl} (the codec knows many
     *     more; only those the server implements belong here)
     * @param monitorContext the DN of the monitor subtree, shown as {@code monitorContext} as OpenLDAP
     *     shows it; null when the server has none
     */
    public VirtualEntries(
            SchemaNormalizer schemaNormalizer,
            Dn suffix,
            String version,
            Entry subschema,
            List<String> extensions,
            List<String> saslMechanisms,
            List<String> controls,
            String monitorContext) {
        this.subschemaDn = schemaNormalizer.dn(ResultEntries.SUBSCHEMA_DN);
        this.rootDse = stored(
                rootDse(schemaNormalizer, suffix, version, extensions, saslMechanisms, controls, monitorContext));
        this.subschema = stored(schemaNormalizer.fromClient(subschemaDn, subschema));
    }

    private static Entry rootDse(
            SchemaNormalizer schemaNormalizer,
            Dn suffix,
            String version,
            List<String> extensions,
            List<String> saslMechanisms,
            List<String> controls,
            String monitorContext) {
        try {
            Entry e = new DefaultEntry(schemaNormalizer.schema(), Dn.EMPTY_DN);
            e.add("objectClass", "top", "extensibleObject");
            e.add("namingContexts", suffix.getName());
            e.add("supportedLDAPVersion", "3");
            if (!extensions.isEmpty()) {
                e.add("supportedExtension", extensions.toArray(String[]::new));
            }
            if (!saslMechanisms.isEmpty()) {
                e.add("supportedSASLMechanisms", saslMechanisms.toArray(String[]::new));
            }
            if (!controls.isEmpty()) {
                e.add("supportedControl", controls.toArray(String[]::new));
            }
            e.add("supportedFeatures", FEATURES);
            e.add("subschemaSubentry", ResultEntries.SUBSCHEMA_DN);
            if (monitorContext != null) {
                e.add("monitorContext", monitorContext);
            }
            e.add("vendorName", "Larch");
            e.add("vendorVersion", "Larch " + version);
            return e;
        } catch (LdapException e) {
            throw new IllegalStateException("cannot build the root DSE", e);
        }
    }

    private static StoredEntry stored(Entry entry) {
        return EntryCodec.toStored(0, DnTree.NO_PARENT, entry);
    }

    public StoredEntry rootDse() {
        return rootDse;
    }

    public StoredEntry subschema() {
        return subschema;
    }

    public Dn subschemaDn() {
        return subschemaDn;
    }
}
