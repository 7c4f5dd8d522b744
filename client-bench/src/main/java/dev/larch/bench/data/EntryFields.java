package dev.larch.bench.data;

import java.util.Locale;
import java.util.Set;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;

/**
 * What the sampler needs from one entry: the first value of each {@link DataSample#COLUMNS
 * column}, and whether the entry is a person or a group with members.
 *
 * <p>Names match case-insensitively, attribute options are ignored ({@code cn;lang-en} counts as
 * {@code cn}) and {@code surname} and {@code gn} count as {@code sn} and {@code givenName}. Where a
 * column has several values (or several attributes), the first in file order is kept: one value is
 * enough to search by.
 */
final class EntryFields {
    private static final Set<String> PERSON_CLASSES = Set.of("person", "organizationalperson", "inetorgperson");
    private static final Set<String> GROUP_CLASSES = Set.of("groupofnames", "groupofuniquenames");

    private final String[] columns = new String[DataSample.COLUMNS.length];
    private boolean isPerson;
    private boolean isGroup;
    private boolean hasMember;

    private EntryFields() {}

    static EntryFields of(Entry entry) {
        EntryFields fields = new EntryFields();
        fields.columns[DataSample.DN] = entry.getDN();
        // An entry's attributes keep the order in which the LDIF first named them, so "first
        // value in file order" is the first value of the first matching attribute.
        for (Attribute attribute : entry.getAttributes()) {
            fields.add(attribute);
        }
        return fields;
    }

    String dn() {
        return columns[DataSample.DN];
    }

    /** Indexed like {@link DataSample#COLUMNS}; a {@code null} cell means the entry has no such attribute. */
    String[] columns() {
        return columns;
    }

    boolean isPerson() {
        return isPerson;
    }

    /** A groupOfNames or groupOfUniqueNames that names at least one member; never also a person. */
    boolean isGroupWithMembers() {
        return !isPerson && isGroup && hasMember;
    }

    private void add(Attribute attribute) {
        switch (attribute.getBaseName().toLowerCase(Locale.ROOT)) {
            case "cn" -> keepFirst(DataSample.CN, attribute);
            case "sn", "surname" -> keepFirst(DataSample.SN, attribute);
            case "givenname", "gn" -> keepFirst(DataSample.GIVEN, attribute);
            case "mail" -> keepFirst(DataSample.MAIL, attribute);
            case "uid" -> keepFirst(DataSample.UID, attribute);
            case "objectclass" -> {
                for (String value : attribute.getValues()) {
                    String objectClass = value.toLowerCase(Locale.ROOT);
                    isPerson |= PERSON_CLASSES.contains(objectClass);
                    isGroup |= GROUP_CLASSES.contains(objectClass);
                }
            }
            case "member", "uniquemember" -> {
                for (String member : attribute.getValues()) {
                    hasMember |= !member.isEmpty();
                }
            }
            default -> {
                // not needed for requests
            }
        }
    }

    private void keepFirst(int column, Attribute attribute) {
        if (columns[column] == null) {
            columns[column] = attribute.getValue();
        }
    }
}
