package dev.larch.e2e;

import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Requests the Apache decoder alone would refuse, sent with OpenLDAP's tools: {@code ldapsearch -s
 * children}, the absolute filters {@code (&)} and {@code (|)}, and {@code ldapexop} with an OID the
 * server does not know. The class owns {@code ou=edges}.
 */
@ExtendWith(SharedServer.class)
class ProtocolEdgesIT {
    static final String EDGES = "ou=edges," + TestData.SUFFIX;

    static LdapUtils admin;

    @BeforeAll
    static void load(SharedServer.Server server) {
        admin = LdapUtils.anonymous(server.port()).asAdmin(server.adminPassword());
        ProcessResult added = admin.ldapaddLdif("dn: " + EDGES + "\nobjectClass: organizationalUnit\nou: edges\n\n"
                + "dn: ou=inner," + EDGES + "\nobjectClass: organizationalUnit\nou: inner\n\n"
                + "dn: ou=deeper,ou=inner," + EDGES + "\nobjectClass: organizationalUnit\nou: deeper\n");
        assertEquals(0, added.exitCode(), added.describe());
    }

    private static List<String> dns(ProcessResult r) {
        assertEquals(0, r.exitCode(), r.describe());
        return r.out()
                .lines()
                .filter(l -> l.startsWith("dn: "))
                .map(l -> l.substring(4))
                .toList();
    }

    @Test
    void childrenScopeLeavesTheBaseOut() {
        assertEquals(
                List.of("ou=inner," + EDGES, "ou=deeper,ou=inner," + EDGES),
                dns(admin.ldapsearch("-LLL", "-b", EDGES, "-s", "children", "(objectClass=*)", "1.1")));
    }

    @Test
    void absoluteTrueAndFalseFilters() {
        assertEquals(3, dns(admin.ldapsearch("-LLL", "-b", EDGES, "(&)", "1.1")).size());
        assertEquals(0, dns(admin.ldapsearch("-LLL", "-b", EDGES, "(|)", "1.1")).size());
        assertEquals(
                1,
                dns(admin.ldapsearch("-LLL", "-b", EDGES, "(&(ou=inner)(!(|)))", "1.1"))
                        .size());
    }

    @Test
    void unknownExtendedOperationNamesItsOid() {
        ProcessResult r = admin.ldapexop("1.2.3.4");
        assertTrue(r.exitCode() != 0, r.describe());
        assertTrue((r.out() + r.err()).contains("Protocol error"), r.describe());
        assertTrue((r.out() + r.err()).contains("unsupported extended operation 1.2.3.4"), r.describe());
    }
}
