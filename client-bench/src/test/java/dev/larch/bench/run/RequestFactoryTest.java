package dev.larch.bench.run;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.bench.TestData;
import dev.larch.bench.data.DataSample;
import dev.larch.bench.data.LdifSampler;
import dev.larch.bench.mix.Mix;
import dev.larch.bench.mix.MixLoader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestFactoryTest {
    static DataSample data;

    @BeforeAll
    static void sample(@TempDir Path dir) throws Exception {
        data = new LdifSampler().sample(TestData.ldif(dir.resolve("d.ldif"), 1_000));
    }

    @Test
    void sameSeedGivesTheSameScript() {
        Mix mix = new MixLoader().load("addressing");
        RequestFactory a = new RequestFactory(mix, data, 42);
        RequestFactory b = new RequestFactory(mix, data, 42);
        for (int i = 0; i < 500; i++) {
            assertEquals(
                    ((SearchCall) a.next()).search().toString(),
                    ((SearchCall) b.next()).search().toString());
        }
    }

    @Test
    void runsDrawDifferentKeys() {
        Mix mix = new MixLoader().load("messaging");
        RequestFactory run1 = new RequestFactory(mix, data, RunEngine.scriptSeed(1, 1, 0, 0));
        RequestFactory run2 = new RequestFactory(mix, data, RunEngine.scriptSeed(1, 2, 0, 0));
        RequestFactory run1Again = new RequestFactory(mix, data, RunEngine.scriptSeed(1, 1, 0, 0));
        int same = 0;
        for (int i = 0; i < 200; i++) {
            String a = ((SearchCall) run1.next()).search().toString();
            if (a.equals(((SearchCall) run2.next()).search().toString())) {
                same++;
            }
            assertEquals(a, ((SearchCall) run1Again.next()).search().toString(), "same seed and run");
        }
        assertTrue(same < 20, "run 2 replayed " + same + " of run 1's 200 requests");
    }

    @Test
    void operationsFollowTheShares() {
        Mix mix = new MixLoader().load("addressing");
        RequestFactory f = new RequestFactory(mix, data, 7);
        int[] counts = new int[mix.operations().size()];
        int n = 100_000;
        for (int i = 0; i < n; i++) {
            counts[f.nextOperation()]++;
        }
        for (int i = 0; i < counts.length; i++) {
            double share = mix.operations().get(i).share();
            assertEquals(
                    share, counts[i] * 100.0 / n, 1.0, mix.operations().get(i).name());
        }
    }

    @Test
    void zeroShareOperationsNeverRun() {
        Mix mix = new MixLoader().load("messaging"); // unknown-recipient has share 0
        RequestFactory f = new RequestFactory(mix, data, 7);
        for (int i = 0; i < 10_000; i++) {
            assertEquals(0, f.nextOperation());
        }
    }

    @Test
    void requestsCarryTheMixShapeAndSampledValues() {
        Mix mix = new MixLoader().load("addressing");
        RequestFactory f = new RequestFactory(mix, data, 1);
        for (int i = 0; i < 300; i++) {
            SearchCall r = (SearchCall) f.next();
            String name = mix.operations().get(r.operation()).name();
            String filter = r.search().getFilter().toString();
            switch (name) {
                case "exact-name" ->
                    assertTrue(
                            filter.startsWith("(cn=") && r.search().getScope().equals(SearchScope.SUB));
                case "wildcard-name" -> assertTrue(filter.matches("\\((sn|givenName)=[A-Za-z]{1,5}\\*\\)"), filter);
                case "read-entry", "expand-group" ->
                    assertEquals(SearchScope.BASE, r.search().getScope());
                case "not-found" -> assertTrue(filter.contains(" Absent"), filter);
                default -> throw new AssertionError(name);
            }
        }
    }

    @Test
    void filterValuesAreEscaped() {
        String json =
                "{\"operations\":[{\"name\":\"a\",\"share\":100,\"filter\":\"(description=${cn})\",\"expect\":\"any\"}]}";
        Mix mix = new MixLoader().parse(json.getBytes(StandardCharsets.UTF_8), "t");
        // Every sampled cn is plain letters; escaping is proven on the filter encoder directly.
        assertEquals("a\\2ab\\28\\29", Filter.encodeValue("a*b()"));
        assertTrue(((SearchCall) new RequestFactory(mix, data, 1).next())
                .search()
                .getFilter()
                .toString()
                .startsWith("(description="));
    }

    @Test
    void requestsCarryTheRightAnswerFromTheDataFile() {
        RequestFactory f = new RequestFactory(new MixLoader().load("addressing"), data, 5);
        int groups = 0;
        int wildcards = 0;
        for (int i = 0; i < 300; i++) {
            SearchCall r = (SearchCall) f.next();
            Expected e = r.expected();
            String filter = r.search().getFilter().toString();
            switch (r.operation()) {
                case 0 -> { // exact name: that person, with the kept attributes asked for
                    assertTrue(filter.equalsIgnoreCase("(cn=" + e.values().get("cn") + ")"), filter);
                    assertTrue(e.dn().startsWith("cn=" + e.values().get("cn") + ","), e.dn());
                    assertTrue(e.values().containsKey("mail"));
                    assertTrue(e.required().contains("telephoneNumber"), "every generated person has one");
                }
                case 1 -> { // wildcard: the prefix attribute is asked for so every hit can be checked
                    wildcards++;
                    String attribute = filter.startsWith("(sn=") ? "sn" : "givenName";
                    assertTrue(List.of(r.search().getAttributes()).contains(attribute), filter);
                    assertEquals(
                            filter.substring(filter.indexOf('=') + 1, filter.length() - 2),
                            e.prefixes().get(attribute));
                }
                case 3 -> assertFalse(e.baseAbsent(), "a subtree search from the suffix: noSuchObject is wrong");
                case 4 -> { // group: all members of that group in the file
                    groups++;
                    assertEquals(r.search().getBaseDN(), e.dn());
                    assertEquals(100, e.members().size());
                }
                default -> assertEquals(r.search().getBaseDN(), e.dn());
            }
        }
        assertTrue(groups > 10 && wildcards > 10);
    }
}
