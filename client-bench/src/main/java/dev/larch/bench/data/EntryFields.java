package dev.larch.bench.data;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;

/**
 * What the sampler needs from one entry: the first value of each {@link DataSample#ATTRIBUTES kept
 * attribute}, whether the entry is a person or a group, and a group's members.
 *
 * <p>Names match case-insensitively, attribute options are ignored ({@code cn;lang-en} counts as
 * {@code cn}) and {@code surname} and {@code gn} count as {@code sn} and {@code givenName}. Where an
 * attribute has several values (or several attributes match), the first in file order is kept: one
 * value is enough to search by. Members are the values of {@code member} and {@code uniqueMember}.
 */
final class EntryFields {
    private static final Set<String> PERSON_CLASSES = Set.of("person", "organizationalperson", "inetorgperson");
    private static final Set<String> GROUP_CLASSES = Set.of("groupofnames", "groupofuniquenames");

    private final String dn;
    private final String[] columns = new String[DataSample.ATTRIBUTES.size()];
    private final List<String> members = new ArrayList<>();
    private final Set<String> attributeNames = new HashSet<>();
    private boolean isPerson;
    private boolean isGroup;

    private EntryFields(String dn) {
        this.dn = dn;
    }

    static EntryFields of(Entry entry) {
        EntryFields fields = new EntryFields(entry.getDN());
        // An entry's attributes keep the order in which the LDIF first named them, so "first
        // value in file order" is the first value of the first matching attribute.
        for (Attribute attribute : entry.getAttributes()) {
            fields.add(attribute);
        }
        return fields;
    }

    String dn() {
        return dn;
    }

    /** Indexed like {@link DataSample#ATTRIBUTES}; a {@code null} cell means the entry has no such attribute. */
    String[] columns() {
        return columns;
    }

    boolean isPerson() {
        return isPerson;
    }

    /** A groupOfNames or groupOfUniqueNames that names at least one member; never also a person. */
    boolean isGroupWithMembers() {
        return !isPerson && isGroup && !members.isEmpty();
    }

    /** Non-empty member and uniqueMember values in file order. */
    List<String> members() {
        return members;
    }

    /** The base names (lower case) of every attribute the entry has a value of. */
    Set<String> attributeNames() {
        return attributeNames;
    }

    private void add(Attribute attribute) {
        String name = attribute.getBaseName().toLowerCase(Locale.ROOT);
        if (attribute.hasValue()) {
            attributeNames.add(name);
        }
        switch (name) {
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
                    if (!member.isEmpty()) {
                        members.add(member);
                    }
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
