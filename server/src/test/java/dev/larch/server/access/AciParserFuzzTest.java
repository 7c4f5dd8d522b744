package dev.larch.server.access;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import dev.larch.schema.LarchSchema;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzes the ACI parser, in the manner of the PDU fuzzer ({@code dev.larch.server.fuzz}): each case
 * is a function of the seed and its index, a few random mutations of a valid ACI (characters the
 * grammar cares about inserted, ranges deleted, duplicated or swapped, nesting repeated, the value cut
 * short). The oracle: parsing returns an ACI or throws {@link AciSyntaxException}, never anything
 * else (no RuntimeException, no StackOverflowError), and each parse ends in bounded time.
 *
 * <p>Long runs: {@code -Dfuzz.aci.seed=S -Dfuzz.aci.cases=N}; a failure names its seed and index, and
 * {@code -Dfuzz.aci.case=K} replays one case.
 */
class AciParserFuzzTest {
    static final long DEFAULT_SEED = 20261128L;
    static final long DEFAULT_CASES = 20_000;
    /** Far above any sane parse (microseconds): only a runaway parse passes it. */
    static final long MAX_PARSE_NANOS = TimeUnit.SECONDS.toNanos(2);

    private static final AciParser PARSER = new AciParser(new AciSchema(LarchSchema.standard()));

    private static final List<String> SEEDS = List.of(
            "(targetattr != \"userPassword || authPassword || aci\")(version 3.0; acl \"anyone\"; allow (read, search, compare) userdn = \"ldap:///anyone\";)",
            "(targetattr = \"userPassword\")(version 3.0; acl \"self\"; allow (write) userdn = \"ldap:///self\";)",
            "(target = \"ldap:///ou=open,dc=example,dc=com\")(targetscope = \"subordinate\")(version 3.0; acl \"editors\"; allow (write, add, delete) groupdn = \"ldap:///cn=editors,ou=groups,dc=example,dc=com\";)",
            "(targetattr = \"telephoneNumber\")(version 3.0; acl \"no phones\"; deny (read, search, compare) userdn = \"ldap:///anyone\" and not userdn = \"ldap:///all\";)",
            "(targetfilter = \"(&(objectClass=person)(|(ou=a)(!(ou=b))))\")(version 3.0; acl \"f\"; allow (read) userdn = \"ldap:///all\" or ip = \"10.0.0.0/8\" and ssf >= \"128\";)",
            "(target = \"ldap:///uid=*,ou=people,dc=example,dc=com\")(version 3.0; acl \"owner\"; allow (write) userattr = \"owner#USERDN\";)",
            "(version 3.0; acl \"methods\"; allow (proxy) authmethod = \"sasl\" and (userdn = \"ldap:///cn=app,dc=example,dc=com\" or groupdn = \"ldap:///cn=apps,dc=example,dc=com\");)",
            "(targetattr = \"*\")(version 3.0; acl \"a\"; allow (all) userdn = \"ldap:///cn=x,dc=example,dc=com || ldap:///cn=y,dc=example,dc=com\"; deny (write) ip != \"::1\";)");

    private static final List<String> FRAGMENTS = List.of(
            "(",
            ")",
            "\"",
            ";",
            "=",
            "!=",
            ">=",
            "<",
            "||",
            "&",
            "|",
            "!",
            "*",
            ",",
            "\\",
            " ",
            "#",
            "/",
            ":",
            "(&",
            "(|",
            "(!",
            "and ",
            "or ",
            "not ",
            "allow ",
            "deny ",
            "(all)",
            "version 3.0",
            "acl ",
            "targetattr",
            "targetfilter",
            "target",
            "targetscope",
            "userdn",
            "groupdn",
            "userattr",
            "ip",
            "ssf",
            "authmethod",
            "ldap:///",
            "ldap:///anyone",
            "ldap:///self",
            "\u00e9",
            "\u0000",
            "\ud800",
            "%",
            "\t\n");

    @Test
    void everyMutatedAciParsesOrIsASyntaxError() {
        long seed = Long.getLong("fuzz.aci.seed", DEFAULT_SEED);
        Long single = Long.getLong("fuzz.aci.case");
        long first = single == null ? 0 : single;
        long count = single == null ? Long.getLong("fuzz.aci.cases", DEFAULT_CASES) : 1;
        System.out.println("ACI parser fuzz: seed " + seed + ", cases " + first + ".." + (first + count - 1));
        List<String> failures = new ArrayList<>();
        int parsed = 0;
        for (long index = first; index < first + count && failures.size() < 10; index++) {
            String aci = mutate(seed, index);
            long start = System.nanoTime();
            try {
                PARSER.parse(aci);
                parsed++;
            } catch (AciSyntaxException expected) {
                // the oracle's other allowed outcome
            } catch (Throwable t) {
                failures.add(describe(seed, index, aci, t.toString()));
                continue;
            }
            long took = System.nanoTime() - start;
            if (took > MAX_PARSE_NANOS) {
                failures.add(describe(seed, index, aci, "took " + TimeUnit.NANOSECONDS.toMillis(took) + " ms"));
            }
        }
        assertEquals(List.of(), failures, "ACI parser fuzz failures; each names its replay properties");
        if (single == null) {
            assertTrue(parsed > 0, "no mutated ACI parsed at all: the mutations are too blunt to reach the grammar");
        }
    }

    @Test
    void aCaseIsAFunctionOfSeedAndIndex() {
        for (long index = 0; index < 50; index++) {
            assertEquals(mutate(7, index), mutate(7, index));
        }
    }

    @Test
    void nestingPastTheBoundIsASyntaxErrorNotAStackOverflow() {
        String deep = "(&".repeat(2_000) + "(cn=x)" + ")".repeat(2_000);
        AciSyntaxException e = assertThrows(
                AciSyntaxException.class,
                () -> PARSER.parse("(targetfilter = \"" + deep
                        + "\")(version 3.0; acl \"x\"; allow (read) userdn = \"ldap:///anyone\";)"));
        assertTrue(e.getMessage().contains("targetfilter nests deeper than"), e.getMessage());
        String deepRule = "(".repeat(5_000) + "userdn = \"ldap:///anyone\"" + ")".repeat(5_000);
        assertThrows(
                AciSyntaxException.class,
                () -> PARSER.parse("(version 3.0; acl \"x\"; allow (read) " + deepRule + ";)"));
    }

    private static String describe(long seed, long index, String aci, String problem) {
        String shown = aci.length() > 300 ? aci.substring(0, 300) + "... (" + aci.length() + " chars)" : aci;
        return "case " + index + " (-Dfuzz.aci.seed=" + seed + " -Dfuzz.aci.case=" + index + "): " + problem + " on "
                + shown;
    }

    /** Case {@code index} of {@code seed}: one valid ACI, mutated one to four times. */
    static String mutate(long seed, long index) {
        SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + index);
        StringBuilder aci = new StringBuilder(SEEDS.get(random.nextInt(SEEDS.size())));
        int mutations = 1 + random.nextInt(4);
        for (int m = 0; m < mutations; m++) {
            int length = aci.length();
            int at = length == 0 ? 0 : random.nextInt(length + 1);
            switch (random.nextInt(7)) {
                case 0 -> aci.insert(at, FRAGMENTS.get(random.nextInt(FRAGMENTS.size())));
                case 1 -> {
                    int end = Math.min(length, at + 1 + random.nextInt(12));
                    aci.delete(Math.min(at, end), end);
                }
                case 2 -> {
                    int end = Math.min(length, at + 1 + random.nextInt(24));
                    aci.insert(end, aci.substring(Math.min(at, end), end));
                }
                case 3 -> {
                    // Nesting repeated: the recursion the parsers must bound.
                    String open = List.of("(", "(&", "(|", "(!", "not (").get(random.nextInt(5));
                    int times = 1 + random.nextInt(random.nextBoolean() ? 8 : 5_000);
                    aci.insert(at, open.repeat(times));
                }
                case 4 -> aci.setLength(at);
                case 5 -> {
                    if (length > 1) {
                        int other = random.nextInt(length);
                        char c = aci.charAt(Math.min(at, length - 1));
                        aci.setCharAt(Math.min(at, length - 1), aci.charAt(other));
                        aci.setCharAt(other, c);
                    }
                }
                default -> {
                    if (length > 0) {
                        aci.setCharAt(Math.min(at, length - 1), (char) random.nextInt(0x30, 0x7f));
                    }
                }
            }
        }
        return aci.toString();
    }
}
