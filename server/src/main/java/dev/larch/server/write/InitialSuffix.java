package dev.larch.server.write;

import java.util.Optional;
import java.util.StringJoiner;

import dev.larch.server.directory.Directory;
import dev.larch.server.directory.SchemaChecker;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;
import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.name.Ava;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.name.Rdn;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The suffix entry a new store starts with ({@code storage.create-suffix}), so that a fresh server
 * answers searches of its suffix and takes adds under it at once.
 *
 * <p>The rule is OpenLDAP's caution with one convenience: the entry is added only when the store
 * holds no entry at all. A store with entries is never touched, so a suffix deleted on purpose is not
 * brought back, and a store loaded by {@code ./larch import} keeps the LDIF's own suffix entry.
 *
 * <p>What the entry looks like follows the suffix's first RDN: {@code dc=x} becomes a {@code dcObject}
 * and {@code organization} with {@code o: x}, {@code o=x} an {@code organization}, {@code ou=x} an
 * {@code organizationalUnit}. Any other RDN (or a multi-valued one) has no obvious object class, so
 * the start fails and asks the operator to add the entry.
 */
public final class InitialSuffix {
    private static final Logger LOG = LoggerFactory.getLogger(InitialSuffix.class);

    private static final String DC = "0.9.2342.19200300.100.1.25";
    private static final String O = "2.5.4.10";
    private static final String OU = "2.5.4.11";

    private InitialSuffix() {}

    /**
     * Adds the suffix entry in one write transaction when the store is empty; does nothing otherwise.
     * Call before the server accepts connections (nothing else may write meanwhile).
     *
     * @return the line to log once the start has succeeded (a failed start prints only its error),
     *     or empty when nothing was added; see {@link #log}
     * @throws IllegalStateException with a message for the operator when the suffix's RDN type has
     *     no known entry shape, or the entry does not pass the schema
     */
    public static Optional<String> createIfEmpty(Directory directory, SchemaChecker checker) {
        try (ReadTxn txn = directory.store().read()) {
            if (txn.entryCount() > 0) {
                return Optional.empty();
            }
        }
        Dn suffix = directory.suffix();
        Entry entry = entryFor(suffix)
                .orElseThrow(() -> new IllegalStateException("cannot create the suffix entry " + suffix.getName()
                        + ": Larch creates only dc=, o= and ou= suffixes; add the entry yourself (ldapadd or"
                        + " ./larch import) and set storage.create-suffix = false"));
        NewEntries newEntries = new NewEntries(directory, checker);
        try (WriteTxn txn = directory.store().write()) {
            newEntries.insert(txn, newEntries.prepare(suffix, entry, false, directory.administrator()));
            txn.commit();
        } catch (ResultCodeException e) {
            throw new IllegalStateException(
                    "cannot create the suffix entry " + suffix.getName() + ": " + e.getMessage()
                            + "; add it yourself and set storage.create-suffix = false",
                    e);
        }
        return Optional.of("created the suffix entry " + suffix.getName() + " (objectClass " + objectClasses(entry)
                + ") in the empty store; storage.create-suffix = false starts without it");
    }

    /** Logs the line {@link #createIfEmpty} returned. */
    public static void log(String created) {
        LOG.info(created);
    }

    private static String objectClasses(Entry entry) {
        StringJoiner names = new StringJoiner(", ");
        for (Value v : entry.get("objectClass")) {
            names.add(v.getString());
        }
        return names.toString();
    }

    /**
     * The client form of the suffix entry for {@code suffix}, or empty when its RDN type has no
     * known shape.
     *
     * @param suffix a schema-aware DN
     */
    static Optional<Entry> entryFor(Dn suffix) {
        Rdn rdn = suffix.getRdn();
        if (rdn == null || rdn.size() != 1) {
            return Optional.empty();
        }
        Ava ava = rdn.getAva();
        AttributeType type = ava.getAttributeType();
        if (type == null) {
            return Optional.empty();
        }
        String value = ava.getValue().getString();
        Entry entry = new DefaultEntry(suffix);
        try {
            switch (type.getOid()) {
                case DC -> {
                    entry.add("objectClass", "top", "dcObject", "organization");
                    entry.add("dc", value);
                    entry.add("o", value);
                }
                case O -> {
                    entry.add("objectClass", "top", "organization");
                    entry.add("o", value);
                }
                case OU -> {
                    entry.add("objectClass", "top", "organizationalUnit");
                    entry.add("ou", value);
                }
                default -> {
                    return Optional.empty();
                }
            }
        } catch (LdapException e) {
            throw new IllegalStateException("cannot build the suffix entry " + suffix.getName(), e);
        }
        return Optional.of(entry);
    }
}
