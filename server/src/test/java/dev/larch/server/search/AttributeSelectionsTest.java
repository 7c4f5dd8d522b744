package dev.larch.server.search;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.larch.schema.LarchSchema;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

class AttributeSelectionsTest {
    private static final SchemaManager SCHEMA = LarchSchema.standard();

    /** Attributes of every kind a selection tells apart: user, operational, subtypes, computed, unknown. */
    private static final List<String> PROBES = List.of(
            "cn",
            "name",
            "sn",
            "mail",
            "uid",
            "userPassword",
            "objectClass",
            "createTimestamp",
            "entryUUID",
            "hasSubordinates",
            "entryDN",
            "2.5.4.3",
            "noSuchAttribute");

    @Test
    void aListAskedForAgainGetsTheSelectionItGotBefore() {
        AttributeSelections selections = new AttributeSelections(SCHEMA);
        AttributeSelection first = selections.of(new ArrayList<>(List.of("cn", "mail", "uid")));
        assertSame(first, selections.of(Arrays.asList("cn", "mail", "uid")));
        assertSame(selections.of(null), selections.of(List.of()));
    }

    @Test
    void aRememberedSelectionSelectsWhatAFreshOneSelects() {
        AttributeSelections selections = new AttributeSelections(SCHEMA);
        List<List<String>> lists = List.of(
                List.of(),
                List.of("*"),
                List.of("+"),
                List.of("*", "+"),
                List.of("1.1"),
                List.of("cn", "mail", "uid"),
                List.of("CN", "Mail"),
                List.of("name"),
                List.of("createTimestamp", "hasSubordinates"),
                List.of("entryDN", " cn "),
                List.of("noSuchAttribute", "bad;;option", ""));
        for (int round = 0; round < 2; round++) {
            for (List<String> list : lists) {
                assertSelectsAlike(AttributeSelection.of(list, SCHEMA), selections.of(list), list.toString());
            }
        }
    }

    @Test
    void aListLongerThanTheRememberedBoundIsAnsweredButNotKept() {
        AttributeSelections selections = new AttributeSelections(SCHEMA);
        List<String> list = new ArrayList<>(PROBES);
        for (int i = 0; list.size() <= AttributeSelections.MAX_REMEMBERED_NAMES; i++) {
            list.add("x-" + i);
        }
        AttributeSelection first = selections.of(list);
        assertSelectsAlike(AttributeSelection.of(list, SCHEMA), first, "long list");
        assertNotSame(first, selections.of(list), "a long list was kept");
        List<String> longName = List.of("cn", "x".repeat(AttributeSelections.MAX_REMEMBERED_CHARS));
        assertNotSame(selections.of(longName), selections.of(longName), "a list of a very long name was kept");
    }

    @Test
    void manyDifferentListsAreStillEachAnsweredRight() {
        AttributeSelections selections = new AttributeSelections(SCHEMA);
        for (int i = 0; i < AttributeSelections.MAX_REMEMBERED * 3; i++) {
            List<String> list = List.of(PROBES.get(i % PROBES.size()), "x-" + i);
            assertSelectsAlike(AttributeSelection.of(list, SCHEMA), selections.of(list), list.toString());
        }
    }

    private static void assertSelectsAlike(AttributeSelection expected, AttributeSelection actual, String where) {
        for (String probe : PROBES) {
            var type = SCHEMA.getAttributeType(probe);
            String oid = type == null ? probe : type.getOid();
            assertEquals(expected.includes(oid, type), actual.includes(oid, type), where + " includes " + probe);
            assertEquals(
                    expected.includesComputed(oid),
                    actual.includesComputed(oid),
                    where + " includes computed " + probe);
        }
    }
}
