package dev.larch.server.access;

import java.util.List;
import java.util.Set;

import dev.larch.schema.LarchSchema;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Per-attribute rights: deny wins, answers are remembered up to the bound and stay right past it. */
class EntryRightsTest {
    private static final AciSchema SCHEMA = new AciSchema(LarchSchema.standard());
    private static final String CN = "2.5.4.3";
    private static final String USER_PASSWORD = "2.5.4.35";

    /** Read and search on everything, read denied on userPassword and on two made-up attributes. */
    private static EntryRights rights() {
        return new EntryRights(
                List.of(
                        new EntryRights.Applied(true, Rights.READ | Rights.SEARCH, AttributeScope.ALL),
                        new EntryRights.Applied(
                                false,
                                Rights.READ,
                                new AttributeScope(Set.of(USER_PASSWORD, oid(0), oid(250)), false, false))),
                SCHEMA);
    }

    private static String oid(int i) {
        return "1.3.6.1.4.1.99999.45." + i;
    }

    @Test
    void everyAnswerIsRightWhetherWorkedOutRememberedOrPastTheBound() {
        EntryRights rights = rights();
        int attributes = EntryRights.MAX_REMEMBERED + 50;
        for (int round = 0; round < 2; round++) {
            assertEquals(Rights.SEARCH, rights.on(USER_PASSWORD), "round " + round);
            assertEquals(Rights.READ | Rights.SEARCH, rights.on(CN), "round " + round);
            for (int i = 0; i < attributes; i++) {
                int expected = i == 0 || i == 250 ? Rights.SEARCH : Rights.READ | Rights.SEARCH;
                assertEquals(expected, rights.on(oid(i)), "attribute " + i + ", round " + round);
            }
        }
        assertEquals(EntryRights.MAX_REMEMBERED, rights.remembered(), "no more answers than the bound");
    }

    @Test
    void anEntryAskedAboutAFewAttributesRemembersEachOnce() {
        EntryRights rights = rights();
        for (int round = 0; round < 3; round++) {
            rights.on(CN);
            rights.on(USER_PASSWORD);
        }
        assertEquals(2, rights.remembered());
    }
}
