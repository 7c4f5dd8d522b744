package dev.larch.schema;

import java.io.IOException;
import java.util.List;

import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.schema.registries.Schema;
import org.apache.directory.api.ldap.schema.loader.JarLdifSchemaLoader;

/**
 * The Apache LDAP API's bundled schemas, with the names OpenLDAP gives where the bundle differs, so
 * that LDIF exported from slapd loads as it is. Today one: the bundle names
 * {@code 1.3.6.1.4.1.42.2.27.8.1.30} {@code pwdGraceExpire}; draft-behera-11 and OpenLDAP 2.6 name it
 * {@code pwdGraceExpiry}, which becomes its first name (the bundle's stays as an alias).
 */
final class BundledSchemaLoader extends JarLdifSchemaLoader {
    static final String GRACE_EXPIRY_OID = "1.3.6.1.4.1.42.2.27.8.1.30";
    static final String GRACE_EXPIRY = "pwdGraceExpiry";

    BundledSchemaLoader() throws IOException, LdapException {
        super();
    }

    @Override
    public List<Entry> loadAttributeTypes(Schema... schemas) throws LdapException, IOException {
        List<Entry> entries = super.loadAttributeTypes(schemas);
        for (Entry entry : entries) {
            Attribute oid = entry.get("m-oid");
            if (oid != null && GRACE_EXPIRY_OID.equals(oid.getString())) {
                Attribute names = entry.get("m-name");
                String bundled = names.getString();
                entry.removeAttributes("m-name");
                entry.add("m-name", GRACE_EXPIRY, bundled);
            }
        }
        return entries;
    }
}
