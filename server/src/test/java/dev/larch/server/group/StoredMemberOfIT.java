package dev.larch.server.group;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import com.unboundid.ldap.sdk.AddRequest;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.controls.PostReadRequestControl;
import com.unboundid.ldap.sdk.controls.PostReadResponseControl;
import com.unboundid.ldap.sdk.experimental.DraftZeilengaLDAPNoOp12RequestControl;
import dev.larch.schema.LarchSchema;
import dev.larch.server.StoredDirectory;
import dev.larch.server.maintenance.StoreVerifier;
import dev.larch.server.maintenance.VerifyReport;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stored memberOf through the real write handlers: every kind of change keeps it, with referential
 * integrity, subtree renames, the no-op control, and each client still sees only the groups it may
 * read. Each test owns an organizational unit; at the end verify finds the store consistent.
 */
class StoredMemberOfIT {
    static final String S = TestServer.SUFFIX;
    static final String READER = "uid=reader,ou=people," + S;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(TestServer::withIntegrityRules)
            .adding("dn: " + READER + "\nobjectClass: inetOrgPerson\nuid: reader\ncn: Reader\nsn: R\n"
                    + "userPassword: secret-r\n");

    static String unit(LDAPConnection c, String ou) throws Exception {
        c.add("dn: ou=" + ou + "," + S, "objectClass: organizationalUnit", "ou: " + ou);
        return "ou=" + ou + "," + S;
    }

    /** A person named uid.OU (uid is unique in the suffix). */
    static String person(LDAPConnection c, String name, String unit) throws Exception {
        String uid = name + "." + unit.substring("ou=".length(), unit.indexOf(','));
        String dn = "uid=" + uid + "," + unit;
        c.add("dn: " + dn, "objectClass: inetOrgPerson", "uid: " + uid, "cn: " + uid, "sn: " + uid);
        return dn;
    }

    static String group(LDAPConnection c, String cn, String unit, String... members) throws LDAPException {
        String dn = "cn=" + cn + "," + unit;
        AddRequest add = new AddRequest(dn, new Attribute[] {
            new Attribute("objectClass", "groupOfNames"), new Attribute("cn", cn), new Attribute("member", members)
        });
        c.add(add);
        return dn;
    }

    static Set<String> memberOf(LDAPConnection c, String dn) throws LDAPException {
        SearchResultEntry e = c.getEntry(dn, "memberOf");
        String[] values = e.getAttributeValues("memberOf");
        return values == null ? Set.of() : new TreeSet<>(List.of(values));
    }

    static void members(LDAPConnection c, String group, ModificationType type, String... dns) throws LDAPException {
        c.modify(group, new Modification(type, "member", dns));
    }

    @AfterAll
    static void theStoreVerifiesClean() throws Exception {
        try (StoredDirectory open = StoredDirectory.openReadOnly(
                larch.server().config(),
                LarchSchema.load(larch.server().config().schemaFiles()),
                false)) {
            VerifyReport report = new StoreVerifier(open.directory(), null).verify();
            assertTrue(report.clean(), report.listed().toString());
        }
    }

    @Test
    void modifyingMembersAddsDeletesAndReplacesMemberOf() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            String u = unit(c, "mod");
            String ann = person(c, "ann", u);
            String bob = person(c, "bob", u);
            String inner = group(c, "inner", u, ann);
            String outer = group(c, "outer", u, bob);
            members(c, outer, ModificationType.ADD, inner);
            assertEquals(Set.of(inner, outer), memberOf(c, ann));
            members(c, outer, ModificationType.DELETE, inner);
            assertEquals(Set.of(inner), memberOf(c, ann));
            members(c, outer, ModificationType.REPLACE, ann);
            assertEquals(Set.of(inner, outer), memberOf(c, ann));
            assertEquals(Set.of(), memberOf(c, bob));
        }
    }

    @Test
    void anAddedEntryGainsTheGroupsThatAlreadyNameIt() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            String u = unit(c, "early");
            String outer = group(c, "outer", u, "cn=inner," + u);
            String inner = group(c, "inner", u, "uid=late.early," + u);
            String late = person(c, "late", u);
            assertEquals(Set.of(inner, outer), memberOf(c, late));
        }
    }

    @Test
    void aRenamedMemberKeepsItsGroupsThroughReferentialIntegrity() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            String u = unit(c, "ren");
            String ann = person(c, "ann", u);
            String inner = group(c, "inner", u, ann);
            String outer = group(c, "outer", u, inner);
            c.modifyDN(ann, "uid=anna", true);
            assertEquals(Set.of(inner, outer), memberOf(c, "uid=anna," + u), "renamed, it keeps its groups");
            c.modifyDN(inner, "cn=core", true);
            assertEquals(Set.of("cn=core," + u, outer), memberOf(c, "uid=anna," + u));
            assertEquals(Set.of(outer), memberOf(c, "cn=core," + u));
        }
    }

    @Test
    void renamingTheUnitAboveAGroupRenamesItInEveryMember() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            String u = unit(c, "sub");
            String ann = person(c, "ann", u);
            String teams = unit(c, "teams");
            group(c, "dev", teams, ann);
            c.modifyDN(teams, "ou=squads", true);
            assertEquals(Set.of("cn=dev,ou=squads," + S), memberOf(c, ann));
        }
    }

    @Test
    void deletingAGroupOrAMemberUpdatesTheOthers() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            String u = unit(c, "del");
            String ann = person(c, "ann", u);
            String bob = person(c, "bob", u);
            String inner = group(c, "inner", u, ann, bob);
            String outer = group(c, "outer", u, inner);
            c.delete(outer);
            assertEquals(Set.of(inner), memberOf(c, ann));
            assertEquals(Set.of(), memberOf(c, inner));
            c.delete(bob); // integrity takes bob out of inner
            assertEquals(Set.of(inner), memberOf(c, ann));
        }
    }

    @Test
    void clientsCannotWriteMemberOf() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            String u = unit(c, "forged");
            String ann = person(c, "ann", u);
            LDAPException added = assertThrows(
                    LDAPException.class,
                    () -> c.add(
                            "dn: uid=eve," + u,
                            "objectClass: inetOrgPerson",
                            "uid: eve",
                            "cn: eve",
                            "sn: eve",
                            "memberOf: cn=admins," + S));
            assertEquals(ResultCode.CONSTRAINT_VIOLATION, added.getResultCode());
            LDAPException modified = assertThrows(
                    LDAPException.class,
                    () -> c.modify(ann, new Modification(ModificationType.ADD, "memberOf", "cn=admins," + S)));
            assertNotEquals(ResultCode.SUCCESS, modified.getResultCode());
            assertEquals(Set.of(), memberOf(c, ann));
        }
    }

    @Test
    void aNoOpWriteLeavesMemberOfAsItWas() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            String u = unit(c, "noop");
            String ann = person(c, "ann", u);
            String bob = person(c, "bob", u);
            String all = group(c, "all", u, ann);
            ModifyRequest modify = new ModifyRequest(
                    all,
                    new Modification(ModificationType.ADD, "member", bob),
                    new Modification(ModificationType.DELETE, "member", ann));
            modify.addControl(new DraftZeilengaLDAPNoOp12RequestControl());
            LDAPResult result;
            try {
                result = c.modify(modify);
            } catch (LDAPException e) {
                result = e.toLDAPResult();
            }
            assertEquals(ResultCode.NO_OPERATION, result.getResultCode());
            assertEquals(Set.of(all), memberOf(c, ann));
            assertEquals(Set.of(), memberOf(c, bob));
        }
    }

    @Test
    void eachClientSeesOnlyTheGroupsItMayRead() throws Exception {
        String ann;
        String open;
        try (LDAPConnection c = larch.server().admin()) {
            String u = unit(c, "screened");
            ann = person(c, "ann", u);
            open = group(c, "open", u, ann);
            c.add(
                    "dn: cn=secret," + u,
                    "objectClass: groupOfNames",
                    "cn: secret",
                    "member: " + ann,
                    "aci: (targetattr=\"*\")(version 3.0; acl \"reader is blind\"; deny (read, search, compare)"
                            + " userdn=\"ldap:///" + READER + "\";)");
            assertEquals(Set.of(open, "cn=secret," + u), memberOf(c, ann));
        }
        try (LDAPConnection reader = larch.server().boundAs(READER, "secret-r")) {
            assertEquals(Set.of(open), memberOf(reader, ann));
        }
    }

    @Test
    void postReadShowsMemberOfAsASearchWould() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            String u = unit(c, "post");
            String ann = person(c, "ann", u);
            String all = group(c, "all", u, ann);
            ModifyRequest modify =
                    new ModifyRequest(ann, new Modification(ModificationType.REPLACE, "description", "changed"));
            modify.addControl(new PostReadRequestControl(true, "memberOf"));
            LDAPResult result = c.modify(modify);
            assertEquals(
                    List.of(all),
                    List.of(PostReadResponseControl.get(result).getEntry().getAttributeValues("memberOf")));
        }
    }
}
