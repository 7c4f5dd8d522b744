package dev.larch.server.read.sync;

import java.util.List;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import dev.larch.server.testing.TestServer;

/** Fresh organizational units of people for the sync tests, so tests share no entry. */
final class SyncUnits {
    private SyncUnits() {}

    /** Adds {@code ou=name} under the suffix with {@code people} inetOrgPersons below it; returns its DN. */
    static String unit(LDAPConnection admin, String name, int people) throws LDAPException {
        String dn = "ou=" + name + "," + TestServer.SUFFIX;
        admin.add(dn, List.of(new Attribute("objectClass", "organizationalUnit"), new Attribute("ou", name)));
        for (int i = 0; i < people; i++) {
            admin.add(
                    person(name, i),
                    List.of(
                            new Attribute("objectClass", "inetOrgPerson"),
                            new Attribute("uid", name + i),
                            new Attribute("cn", name + " " + i),
                            new Attribute("sn", "Person" + i)));
        }
        return dn;
    }

    /** The DN of person {@code i} of unit {@code unit}. */
    static String person(String unit, int i) {
        return "uid=" + unit + i + ",ou=" + unit + "," + TestServer.SUFFIX;
    }
}
