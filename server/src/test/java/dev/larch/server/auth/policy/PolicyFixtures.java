package dev.larch.server.auth.policy;

import java.time.Instant;
import java.util.List;

import dev.larch.schema.LarchSchema;
import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

/** Policies, states and schema-aware entries for the policy tests. */
final class PolicyFixtures {
    static final SchemaManager SCHEMA = LarchSchema.standard();
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private PolicyFixtures() {}

    /** A policy entry with the given LDIF lines after the object classes, read as the server reads it. */
    static PasswordPolicy policy(String... lines) {
        try {
            Object[] all = new Object[lines.length + 4];
            all[0] = "objectClass: device";
            all[1] = "objectClass: pwdPolicy";
            all[2] = "cn: p";
            all[3] = "pwdAttribute: userPassword";
            System.arraycopy(lines, 0, all, 4, lines.length);
            return PasswordPolicy.from(new DefaultEntry(SCHEMA, "cn=p,dc=example,dc=com", all));
        } catch (LdapException e) {
            throw new AssertionError(e);
        }
    }

    static Entry user(String... lines) {
        try {
            Object[] all = new Object[lines.length + 4];
            all[0] = "objectClass: inetOrgPerson";
            all[1] = "uid: u";
            all[2] = "cn: U";
            all[3] = "sn: U";
            System.arraycopy(lines, 0, all, 4, lines.length);
            return new DefaultEntry(SCHEMA, new Dn(SCHEMA, "uid=u,dc=example,dc=com"), all);
        } catch (LdapException e) {
            throw new AssertionError(e);
        }
    }

    static PasswordState state(Instant changed, Instant locked, List<Instant> failures, List<Instant> graceUses) {
        return new PasswordState(null, changed, locked, failures, graceUses, false);
    }

    static PasswordState fresh() {
        return state(null, null, List.of(), List.of());
    }
}
