package dev.larch.bench.mix;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import com.unboundid.ldap.sdk.SearchScope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MixLoaderTest {
    private final MixLoader loader = new MixLoader();

    private Mix parse(String json) {
        return loader.parse(json.getBytes(StandardCharsets.UTF_8), "test.json");
    }

    private String failure(String json) {
        return assertThrows(InvalidMixException.class, () -> parse(json)).getMessage();
    }

    @Test
    void builtInAddressingMixHasTheDirectoryMarkShares() {
        Mix mix = loader.load("addressing");
        assertEquals("addressing", mix.name());
        assertTrue(mix.connection().perLookup());
        assertEquals(1, mix.connection().minOps());
        assertEquals(3, mix.connection().maxOps());
        assertEquals(
                List.of(30.0, 30.0, 15.0, 10.0, 15.0),
                mix.operations().stream().map(OperationSpec::share).toList());
        OperationSpec group = mix.operations().get(4);
        assertEquals(SearchScope.BASE, group.scope());
        assertEquals(List.of("member"), group.requireAttributes());
        assertEquals(Set.of(Variable.GROUP_DN), group.variables());
        assertEquals(2, mix.operations().get(1).filters().size());
        assertEquals(64, mix.sha256().length());
    }

    @Test
    void builtInMessagingMixIsPersistentMailLookups() {
        Mix mix = loader.load("messaging");
        assertFalse(mix.connection().perLookup());
        OperationSpec op = mix.operations().get(0);
        assertEquals(100.0, op.share());
        assertEquals(Expectation.ONE, op.expect());
        assertEquals(Set.of(Variable.SUFFIX, Variable.MAIL), op.variables());
    }

    @Test
    void sameBytesGiveTheSameHash() {
        assertEquals(loader.load("messaging").sha256(), loader.load("messaging").sha256());
    }

    @Test
    void unknownOperationTypeIsRejected() {
        String m = failure(
                "{\"operations\":[{\"name\":\"a\",\"type\":\"rename\",\"share\":100,\"filter\":\"(cn=x)\",\"expect\":\"one\"}]}");
        assertTrue(m.contains("unknown operation type 'rename'") && m.contains("modrdn"), m);
    }

    @Test
    void everyBuiltInMixLoadsAndTheWriteMixesWriteAPersonsDescription() {
        for (String name : MixLoader.BUILT_IN) {
            assertEquals(name, loader.load(name).name());
        }
        OperationSpec modify = loader.load("modify").operations().get(0);
        assertEquals(OpType.MODIFY, modify.type());
        assertEquals("description", modify.attribute());
        assertEquals(Set.of(Variable.PERSON_DN, Variable.RANDOM), modify.variables());
        Mix mixed = loader.load("mixed");
        assertEquals(
                List.of(80.0, 20.0),
                mixed.operations().stream().map(OperationSpec::share).toList());
        assertEquals(
                OpType.AUTHENTICATE, loader.load("authrate").operations().get(0).type());
        assertEquals(OpType.CHURN, loader.load("churn").operations().get(0).type());
    }

    @Test
    void eachOperationTypeGetsItsDefaults() {
        Mix mix = parse("{\"operations\":[{\"name\":\"m\",\"type\":\"modify\",\"share\":20},"
                + "{\"name\":\"a\",\"type\":\"add\",\"share\":20},"
                + "{\"name\":\"d\",\"type\":\"delete\",\"share\":20},"
                + "{\"name\":\"r\",\"type\":\"modrdn\",\"share\":20},"
                + "{\"name\":\"c\",\"type\":\"compare\",\"share\":10,\"expect\":\"false\","
                + "\"value\":\"${absentMail}\"},"
                + "{\"name\":\"ch\",\"type\":\"churn\",\"share\":10}]}");
        List<OperationSpec> ops = mix.operations();
        assertEquals("description", ops.get(0).attribute());
        assertEquals(Set.of(Variable.PERSON_DN), ops.get(1).variables(), "an add needs a people container");
        assertEquals(OpType.DELETE, ops.get(2).type());
        assertEquals(OpType.MODRDN, ops.get(3).type());
        assertEquals("mail", ops.get(4).attribute());
        assertEquals(5, ops.get(4).expectedResultCode(), "compareFalse");
        assertEquals("${uid}", ops.get(5).password().toString());
        assertEquals(Expectation.ONE, ops.get(5).expect());
    }

    @Test
    void misusedTypesAreRejectedWithWhatToFix() {
        String key =
                failure("{\"operations\":[{\"name\":\"m\",\"type\":\"modify\",\"share\":100,\"attribute\":\"mail\"}]}");
        assertTrue(key.contains("may not modify 'mail'"), key);
        String field =
                failure("{\"operations\":[{\"name\":\"m\",\"type\":\"add\",\"share\":100,\"filter\":\"(cn=x)\"}]}");
        assertTrue(field.contains("type add takes no 'filter'"), field);
        String expect =
                failure("{\"operations\":[{\"name\":\"b\",\"type\":\"bind\",\"share\":100,\"expect\":\"one\"}]}");
        assertTrue(expect.contains("success, invalidCredentials"), expect);
        String bindAndWrite = failure("{\"operations\":[{\"name\":\"b\",\"type\":\"authenticate\",\"share\":50},"
                + "{\"name\":\"m\",\"type\":\"modify\",\"share\":50}]}");
        assertTrue(bindAndWrite.contains("without write rights") && bindAndWrite.contains("churn"), bindAndWrite);
    }

    @Test
    void sharesThatDoNotAddUpTo100AreRejected() {
        String m = failure("{\"operations\":[{\"name\":\"a\",\"share\":60,\"filter\":\"(cn=x)\",\"expect\":\"one\"},"
                + "{\"name\":\"b\",\"share\":30,\"filter\":\"(cn=y)\",\"expect\":\"one\"}]}");
        assertTrue(m.contains("add up to 90") && m.contains("not 100"), m);
    }

    @Test
    void unknownPlaceholderIsRejected() {
        String m = failure(
                "{\"operations\":[{\"name\":\"a\",\"share\":100,\"filter\":\"(cn=${nickname})\",\"expect\":\"one\"}]}");
        assertTrue(m.contains("${nickname}"), m);
    }

    @Test
    void invalidFilterSyntaxIsRejected() {
        String m = failure(
                "{\"operations\":[{\"name\":\"a\",\"share\":100,\"filter\":\"(cn=${cn}\",\"expect\":\"one\"}]}");
        assertTrue(m.contains("invalid filter"), m);
    }

    @Test
    void unknownFieldsScopesExpectationsAndModelsAreRejected() {
        assertTrue(failure("{\"operations\":[],\"colour\":1}").contains("colour"));
        assertTrue(failure(
                        "{\"operations\":[{\"name\":\"a\",\"share\":100,\"filter\":\"(cn=x)\",\"expect\":\"one\",\"scope\":\"deep\"}]}")
                .contains("scope 'deep'"));
        assertTrue(
                failure("{\"operations\":[{\"name\":\"a\",\"share\":100,\"filter\":\"(cn=x)\",\"expect\":\"many\"}]}")
                        .contains("expect 'many'"));
        assertTrue(failure(
                        "{\"connection\":{\"model\":\"pooled\"},\"operations\":[{\"name\":\"a\",\"share\":100,\"filter\":\"(cn=x)\",\"expect\":\"one\"}]}")
                .contains("pooled"));
        assertTrue(failure("{\"operations\":[]}").contains("no operations"));
        assertTrue(failure("{not json").contains("not valid"));
    }

    @Test
    void missingFileNamesTheBuiltIns(@TempDir Path dir) {
        String m = assertThrows(
                        InvalidMixException.class,
                        () -> loader.load(dir.resolve("x.json").toString()))
                .getMessage();
        assertTrue(m.contains("not found") && m.contains("messaging"), m);
    }

    @Test
    void mixFileFromDiskIsHashedOverItsBytes(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("m.json");
        Files.writeString(
                f,
                "{\"name\":\"m\",\"operations\":[{\"name\":\"a\",\"share\":100,\"filter\":\"(uid=${uid})\",\"expect\":\"one\"}]}");
        Mix mix = loader.load(f.toString());
        assertEquals(MixLoader.sha256(Files.readAllBytes(f)), mix.sha256());
        assertEquals(f.toString(), mix.source());
    }
}
