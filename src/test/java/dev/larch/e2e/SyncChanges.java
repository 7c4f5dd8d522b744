package dev.larch.e2e;

import java.util.Locale;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyDNRequest;

/**
 * The writes the sync scenario makes on a provider loaded with a {@link GeneratedTree} of at least
 * 20,000 people in 10 units, in numbered rounds: adds (people, and a new unit with people below
 * it), modifies (replace, add and delete of values), deletes, a leaf renamed in place, a leaf moved
 * to another unit, and unit 9, with all its people, renamed. Each round touches its own people
 * (indexes from {@code 6000 * (round - 1)}, never in unit 9), so rounds never collide.
 */
final class SyncChanges {
    static final int RENAMED_UNIT = 9;
    static final int ROUND_SPAN = 6000;

    private final GeneratedTree tree;
    private String unit9 = "ou=unit" + RENAMED_UNIT;

    SyncChanges(GeneratedTree tree) {
        if (tree.units() != 10 || tree.people() < 3 * ROUND_SPAN) {
            throw new IllegalArgumentException("the changes assume 10 units and 18,000+ people: " + tree);
        }
        this.tree = tree;
    }

    /**
     * Round {@code round} (1..3) on {@code c}: {@code count} (at most 200) each of added people,
     * modified people and deleted people, plus the renames. Returns the number of write operations.
     */
    int round(LDAPConnection c, int round, int count) throws LDAPException {
        if (round < 1 || round > 3 || count < 1 || count > 200) {
            throw new IllegalArgumentException("round 1..3, count 1..200: " + round + ", " + count);
        }
        int base = ROUND_SPAN * (round - 1);
        int operations = 0;
        for (int k = 0; k < count; k++) {
            String uid = String.format(Locale.ROOT, "added-r%d-%03d", round, k);
            c.add(person(uid, tree.unitDn(k % RENAMED_UNIT)));
            operations++;
        }
        String team = "ou=team-r" + round + "," + TestData.SUFFIX;
        c.add(new Entry(
                team, new Attribute("objectClass", "organizationalUnit"), new Attribute("ou", "team-r" + round)));
        for (int k = 0; k < 3; k++) {
            c.add(person("team-r" + round + "-" + k, team));
        }
        operations += 4;
        for (int k = 0; k < count; k++) {
            int i = base + k * 10 + k % RENAMED_UNIT;
            c.modify(
                    tree.personDn(i),
                    new Modification(
                            ModificationType.REPLACE,
                            "telephoneNumber",
                            "+1 555 9" + round + String.format(Locale.ROOT, "%05d", k)),
                    new Modification(ModificationType.ADD, "description", "changed in round " + round),
                    new Modification(ModificationType.DELETE, "givenName"));
            operations++;
        }
        for (int k = 0; k < count; k++) {
            c.delete(tree.personDn(base + 2000 + k * 10 + k % RENAMED_UNIT));
            operations++;
        }
        // A leaf renamed in place (its uid value replaced), then one moved to another unit.
        int renamed = base + 4000;
        c.modifyDN(tree.personDn(renamed), "uid=renamed-r" + round, true);
        int moved = base + 4001;
        c.modifyDN(new ModifyDNRequest(tree.personDn(moved), "uid=" + GeneratedTree.uid(moved), true, tree.unitDn(2)));
        // A unit with 2,000 people below it renamed: the consumer must move the whole subtree.
        String newUnit9 = "ou=unit" + RENAMED_UNIT + "-r" + round;
        c.modifyDN(unit9 + "," + TestData.SUFFIX, newUnit9, true);
        unit9 = newUnit9;
        return operations + 3;
    }

    private static Entry person(String uid, String parent) {
        return new Entry(
                "uid=" + uid + "," + parent,
                new Attribute("objectClass", "inetOrgPerson"),
                new Attribute("uid", uid),
                new Attribute("cn", uid + " Added"),
                new Attribute("sn", "Added"),
                new Attribute("mail", uid + "@example.com"));
    }
}
