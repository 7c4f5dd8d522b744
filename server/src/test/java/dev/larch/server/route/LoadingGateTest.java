package dev.larch.server.route;

import java.nio.file.Path;

import dev.larch.server.error.ResultCodeException;
import dev.larch.server.read.VirtualEntries;
import dev.larch.server.testing.TestTree;
import org.apache.directory.api.ldap.model.message.AddRequestImpl;
import org.apache.directory.api.ldap.model.message.BindRequestImpl;
import org.apache.directory.api.ldap.model.message.CompareRequestImpl;
import org.apache.directory.api.ldap.model.message.OpaqueExtendedRequest;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchRequestImpl;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.apache.directory.api.ldap.model.name.Dn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LoadingGateTest {
    private TestTree tree;
    private LoadingGate gate;

    @BeforeEach
    void open(@TempDir Path dir) {
        tree = new TestTree(dir);
        gate = new LoadingGate(tree.directory, tree.schemaNormalizer.dn("cn=admin,dc=example,dc=com"));
    }

    @AfterEach
    void close() {
        tree.close();
    }

    @Test
    void whileTheStoreLoadsInBulkWhatNeedsTheTreeIsTurnedAwayWithUnavailable() throws Exception {
        tree.store.loadingInBulk(true);

        assertRefused(search("ou=People,dc=example,dc=com"));
        assertRefused(search("DC=Example,DC=com"));
        assertRefused(new CompareRequestImpl().setName(new Dn("uid=ann,dc=example,dc=com")));
        assertRefused(new AddRequestImpl().setEntryDn(new Dn("uid=new,dc=example,dc=com")));
        assertRefused(simpleBind("uid=ann,ou=People,dc=example,dc=com"));
        assertRefused(new BindRequestImpl().setSaslMechanism("EXTERNAL").setSimple(false));
        assertRefused(new OpaqueExtendedRequest(VirtualEntries.PASSWORD_MODIFY_OID));
    }

    @Test
    void whileTheStoreLoadsTheRootDseMonitorAnonymousAndAdministratorBindsPass() throws Exception {
        tree.store.loadingInBulk(true);

        assertDoesNotThrow(() -> gate.check(search("")));
        assertDoesNotThrow(() -> gate.check(search("cn=Monitor")));
        assertDoesNotThrow(() -> gate.check(simpleBind("")));
        assertDoesNotThrow(() -> gate.check(simpleBind("CN=Admin,dc=example,dc=com")));
        assertDoesNotThrow(() -> gate.check(new OpaqueExtendedRequest("1.3.6.1.4.1.4203.1.11.3")));
    }

    @Test
    void onceTheLoadEndedEverythingPasses() throws Exception {
        tree.store.loadingInBulk(true);
        tree.store.loadingInBulk(false);

        assertDoesNotThrow(() -> gate.check(search("ou=People,dc=example,dc=com")));
        assertDoesNotThrow(() -> gate.check(simpleBind("uid=ann,ou=People,dc=example,dc=com")));
    }

    private void assertRefused(Request request) {
        ResultCodeException refused = assertThrows(ResultCodeException.class, () -> gate.check(request));
        assertEquals(ResultCodeEnum.UNAVAILABLE, refused.code());
    }

    private static SearchRequestImpl search(String base) throws Exception {
        SearchRequestImpl search = new SearchRequestImpl();
        search.setBase(new Dn(base));
        search.setScope(SearchScope.SUBTREE);
        return search;
    }

    private static BindRequestImpl simpleBind(String name) {
        BindRequestImpl bind = new BindRequestImpl();
        bind.setName(name);
        bind.setSimple(true);
        bind.setCredentials("secret");
        return bind;
    }
}
