package dev.larch.server.search;

import java.nio.file.Path;
import java.util.List;

import dev.larch.server.testing.Ldif;
import dev.larch.server.testing.TestTree;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The cursor keeps to the search's scope, with and without indexed candidates. */
class SearchCursorTest {
    private static final String SUFFIX = "dc=example,dc=com";
    private static final String PEOPLE = "ou=People," + SUFFIX;

    @TempDir
    static Path dir;

    static TestTree tree;

    @BeforeAll
    static void load() {
        tree = new TestTree(dir).add(Ldif.PEOPLE_AND_GROUP);
    }

    @AfterAll
    static void close() {
        tree.close();
    }

    @Test
    void extensibleMatchWithDnAttributesMatchesRdnValues() {
        assertEquals(
                6,
                tree.search(SUFFIX, SearchScope.SUBTREE, "(ou:dn:=People)").stream()
                        .filter(d -> d.startsWith("uid="))
                        .count());
    }

    @Test
    void baseScopeReturnsOnlyTheBase() {
        assertEquals(List.of(PEOPLE), tree.search(PEOPLE, SearchScope.OBJECT, "(objectClass=*)"));
    }

    @Test
    void oneLevelScopeReturnsOnlyChildren() {
        assertEquals(
                6, tree.search(PEOPLE, SearchScope.ONELEVEL, "(objectClass=*)").size());
        assertEquals(
                List.of("ou=People," + SUFFIX, "ou=Groups," + SUFFIX),
                tree.search(SUFFIX, SearchScope.ONELEVEL, "(objectClass=organizationalUnit)"));
    }

    @Test
    void subtreeSearchNeverLeavesItsBase() {
        assertEquals(
                sorted(List.of("ou=Groups," + SUFFIX, "cn=staff,ou=Groups," + SUFFIX)),
                sorted(tree.search("ou=Groups," + SUFFIX, SearchScope.SUBTREE, "(objectClass=*)")));
        assertEquals(
                List.of("cn=staff,ou=Groups," + SUFFIX),
                tree.search("ou=Groups," + SUFFIX, SearchScope.SUBTREE, "(cn=staff)"));
        assertEquals(List.of(), tree.search("ou=Groups," + SUFFIX, SearchScope.SUBTREE, "(uid=jdoe)"));
    }

    @Test
    void indexedCandidatesOutsideAOneLevelScopeAreDropped() {
        assertEquals(List.of(), tree.search(SUFFIX, SearchScope.ONELEVEL, "(uid=jdoe)"));
    }

    private static List<String> sorted(List<String> l) {
        return l.stream().sorted().toList();
    }
}
