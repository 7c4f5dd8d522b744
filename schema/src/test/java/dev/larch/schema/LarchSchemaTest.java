package dev.larch.schema;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.LdapSyntax;
import org.apache.directory.api.ldap.model.schema.ObjectClass;
import org.apache.directory.api.ldap.model.schema.ObjectClassTypeEnum;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LarchSchemaTest {
    /** The shipped examples, relative to this module (Surefire runs in the module directory). */
    private static final Path EXAMPLE = Path.of("examples/larch-example.schema");

    private static final Path DEVICES = Path.of("examples/larch-devices.schema");

    @TempDir
    Path dir;

    @Test
    void loadsStrictWithTheStandardSchemas() throws Exception {
        long start = System.nanoTime();
        SchemaManager schema = LarchSchema.load(List.of());
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.println("LarchSchema.load(no extra files) took " + millis + " ms");
        assertTrue(schema.isStrict());
        assertTrue(schema.getErrors().isEmpty());
        for (String name : LarchSchema.STANDARD_SCHEMAS) {
            assertTrue(schema.getRegistries().isSchemaLoaded(name), name);
        }
        assertFalse(schema.getRegistries().isSchemaLoaded("adsconfig"));
        assertTrue(millis < 10_000, "schema load is far slower than expected: " + millis + " ms");
    }

    @Test
    void knowsInetOrgPersonAndPosixAccount() throws LdapException {
        SchemaManager schema = LarchSchema.standard();
        ObjectClass person = schema.lookupObjectClassRegistry("inetOrgPerson");
        assertEquals(ObjectClassTypeEnum.STRUCTURAL, person.getType());
        assertTrue(person.getMayAttributeTypeOids().contains("mail")
                || person.getMayAttributeTypes().contains(schema.lookupAttributeTypeRegistry("mail")));
        ObjectClass posix = schema.lookupObjectClassRegistry("posixAccount");
        assertEquals(ObjectClassTypeEnum.AUXILIARY, posix.getType());
        List<String> must = posix.getMustAttributeTypes().stream()
                .map(AttributeType::getName)
                .toList();
        assertTrue(must.containsAll(List.of("uid", "uidNumber", "gidNumber", "homeDirectory")), must.toString());
        assertNotNull(schema.lookupObjectClassRegistry("posixGroup"));
        assertNotNull(schema.lookupAttributeTypeRegistry("entryUUID"));
    }

    @Test
    void aStandardEntryPassesTheSchemaAwareEntry() throws LdapException {
        DefaultEntry entry = new DefaultEntry(
                LarchSchema.standard(),
                "uid=jdoe,ou=people,dc=example,dc=com",
                "objectClass: inetOrgPerson",
                "objectClass: posixAccount",
                "cn: John Doe",
                "sn: Doe",
                "uid: jdoe",
                "uidNumber: 1000",
                "gidNumber: 1000",
                "homeDirectory: /home/jdoe");
        assertTrue(entry.hasObjectClass("posixAccount"));
    }

    @Test
    void pwdGraceExpiryHasOpenLdapsNameAndKeepsTheBundledOne() throws LdapException {
        SchemaManager schema = LarchSchema.standard();
        AttributeType byOpenLdapName = schema.lookupAttributeTypeRegistry("pwdGraceExpiry");
        assertEquals("1.3.6.1.4.1.42.2.27.8.1.30", byOpenLdapName.getOid());
        assertEquals("pwdGraceExpiry", byOpenLdapName.getName());
        assertSame(byOpenLdapName, schema.lookupAttributeTypeRegistry("pwdGraceExpire"));
        assertTrue(schema.lookupObjectClassRegistry("pwdPolicy")
                .getMayAttributeTypes()
                .contains(byOpenLdapName));
    }

    @Test
    void aPolicyEntryMayCarryLarchsCharacterClassRule() throws LdapException {
        DefaultEntry policy = new DefaultEntry(
                LarchSchema.standard(),
                "cn=p,dc=example,dc=com",
                "objectClass: device",
                "objectClass: pwdPolicy",
                "objectClass: larchPwdPolicy",
                "cn: p",
                "pwdAttribute: userPassword",
                "pwdGraceExpiry: 3600",
                "larchPwdMinCharClasses: 3");
        assertEquals("3", policy.get("larchPwdMinCharClasses").getString());
        assertEquals(
                ObjectClassTypeEnum.AUXILIARY,
                LarchSchema.standard()
                        .lookupObjectClassRegistry("larchPwdPolicy")
                        .getType());
    }

    @Test
    void cnEqualityIgnoresCaseAndInnerSpaces() throws LdapException {
        AttributeType cn = LarchSchema.standard().lookupAttributeTypeRegistry("cn");
        assertEquals(new Value(cn, "John  SMITH "), new Value(cn, "john smith"));
        assertNotEquals(new Value(cn, "John Smith"), new Value(cn, "John Smyth"));
        assertEquals("caseIgnoreMatch", cn.getEquality().getName());
    }

    @Test
    void cnEqualityFoldsTheTurkishIWithoutTheDefaultLocale() throws LdapException {
        AttributeType cn = LarchSchema.standard().lookupAttributeTypeRegistry("cn");
        assertEquals(new Value(cn, "INFO"), new Value(cn, "info"));
    }

    @Test
    void monitorNamesAreOpenLdapsOperationalTypes() throws LdapException {
        SchemaManager schema = LarchSchema.standard();
        AttributeType counter = schema.lookupAttributeTypeRegistry("monitorCounter");
        assertEquals("1.3.6.1.4.1.4203.666.1.55.3", counter.getOid());
        assertTrue(counter.isOperational());
        assertEquals("integerOrderingMatch", counter.getOrdering().getName());
        AttributeType initiated = schema.lookupAttributeTypeRegistry("monitorOpInitiated");
        assertEquals("1.3.6.1.4.1.4203.666.1.55.5", initiated.getOid());
        assertSame(counter, initiated.getSuperior());
        assertEquals(
                "1.3.6.1.4.1.4203.666.1.55.4",
                schema.lookupAttributeTypeRegistry("monitorOpCompleted").getOid());
        assertEquals(
                "1.3.6.1.4.1.4203.666.1.55.1",
                schema.lookupAttributeTypeRegistry("monitoredInfo").getOid());
        assertEquals(
                "1.3.6.1.4.1.4203.666.1.55.10",
                schema.lookupAttributeTypeRegistry("monitorTimestamp").getOid());
        assertEquals(
                "1.3.6.1.4.1.4203.666.1.10",
                schema.lookupAttributeTypeRegistry("monitorContext").getOid());
        ObjectClass server = schema.lookupObjectClassRegistry("monitorServer");
        assertEquals("1.3.6.1.4.1.4203.666.3.16.2", server.getOid());
        assertEquals("monitor", server.getSuperiors().get(0).getName());
        assertEquals(
                ObjectClassTypeEnum.STRUCTURAL,
                schema.lookupObjectClassRegistry("monitorCounterObject").getType());
    }

    @Test
    void telephoneNumberIgnoresSpacesAndHyphens() throws LdapException {
        AttributeType phone = LarchSchema.standard().lookupAttributeTypeRegistry("telephoneNumber");
        assertEquals(new Value(phone, "+1 555-123 4567"), new Value(phone, "+15551234567"));
        assertNotEquals(new Value(phone, "+1 555 123 4567"), new Value(phone, "+1 555 123 4568"));
    }

    @Test
    void extraFileAddsAttributesAndObjectClasses() throws LdapException, SchemaLoadException {
        SchemaManager schema = LarchSchema.load(List.of(EXAMPLE, DEVICES));
        AttributeType badge = schema.lookupAttributeTypeRegistry("larchBadgeId");
        assertEquals("1.3.6.1.4.1.99999.1.1.1", badge.getOid());
        assertTrue(badge.isSingleValued());
        assertEquals("larch-example", badge.getSchemaName());
        assertEquals(new Value(badge, "ab-12"), new Value(badge, "AB-12"));
        ObjectClass employee = schema.lookupObjectClassRegistry("larchEmployee");
        assertEquals(ObjectClassTypeEnum.AUXILIARY, employee.getType());
        assertEquals("1.3.6.1.4.1.99999.1.2.1", employee.getOid());
        assertNotNull(schema.lookupObjectClassRegistry("larchDevice"));
        assertEquals(
                schema.lookupAttributeTypeRegistry("larchOwner"),
                schema.lookupAttributeTypeRegistry("larchAssignedTo"));
        assertTrue(schema.isStrict());

        DefaultEntry entry = new DefaultEntry(
                schema,
                "uid=jdoe,dc=example,dc=com",
                "objectClass: inetOrgPerson",
                "objectClass: larchEmployee",
                "cn: John Doe",
                "sn: Doe",
                "larchBadgeId: AB-12",
                "larchStartDate: 20240102090000Z");
        assertTrue(entry.contains("larchbadgeid", "ab-12"));
    }

    @Test
    void extraFileDoesNotTouchTheSharedInstance() throws SchemaLoadException {
        LarchSchema.load(List.of(EXAMPLE));
        assertThrows(LdapException.class, () -> LarchSchema.standard().lookupAttributeTypeRegistry("larchBadgeId"));
    }

    @Test
    void laterFilesMayUseEarlierOnes() throws Exception {
        Path more = write("more.schema", """
                objectclass ( 1.3.6.1.4.1.99999.9.1 NAME 'larchContractor'
                    SUP larchEmployee AUXILIARY MAY larchDesk )
                """);
        SchemaManager schema = LarchSchema.load(List.of(EXAMPLE, more));
        assertEquals("more", schema.lookupObjectClassRegistry("larchContractor").getSchemaName());
    }

    @Test
    void syntaxErrorNamesFileAndLine() throws IOException {
        Path bad = write("bad.schema", """
                # fine so far
                attributetype ( 1.3.6.1.4.1.99999.9.2 NAME 'ok' SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )
                attributetyp ( 1.3.6.1.4.1.99999.9.3 NAME 'typo' )
                """);
        SchemaLoadException e = assertThrows(SchemaLoadException.class, () -> LarchSchema.load(List.of(bad)));
        assertTrue(e.getMessage().startsWith(bad + ": "), e.getMessage());
        assertTrue(e.getMessage().contains("line 3"), e.getMessage());
        assertOneLine(e);
    }

    @Test
    void unknownAttributeInObjectClassNamesTheClass() throws IOException {
        Path bad = write("bad.schema", """
                objectclass ( 1.3.6.1.4.1.99999.9.4 NAME 'broken' SUP top AUXILIARY MUST noSuchAttribute )
                """);
        SchemaLoadException e = assertThrows(SchemaLoadException.class, () -> LarchSchema.load(List.of(bad)));
        assertTrue(e.getMessage().startsWith(bad + ": objectclass 1.3.6.1.4.1.99999.9.4 (broken): "), e.getMessage());
        assertTrue(e.getMessage().contains("noSuchAttribute"), e.getMessage());
        assertOneLine(e);
    }

    @Test
    void takenOidIsRejected() throws IOException {
        Path bad = write("clash.schema", """
                attributetype ( 2.5.4.3 NAME 'myCn' SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )
                """);
        SchemaLoadException e = assertThrows(SchemaLoadException.class, () -> LarchSchema.load(List.of(bad)));
        assertTrue(e.getMessage().startsWith(bad + ": attributetype 2.5.4.3 (myCn): "), e.getMessage());
        assertTrue(e.getMessage().contains("2.5.4.3"), e.getMessage());
        assertOneLine(e);
    }

    @Test
    void unknownSyntaxIsRejected() throws IOException {
        Path bad = write("syntax.schema", """
                attributetype ( 1.3.6.1.4.1.99999.9.5 NAME 'odd' SYNTAX 1.2.3.4.5.6.7 )
                """);
        SchemaLoadException e = assertThrows(SchemaLoadException.class, () -> LarchSchema.load(List.of(bad)));
        assertTrue(e.getMessage().startsWith(bad + ": attributetype 1.3.6.1.4.1.99999.9.5 (odd): "), e.getMessage());
        assertOneLine(e);
    }

    @Test
    void missingFileIsNamed() {
        Path missing = dir.resolve("missing.schema");
        SchemaLoadException e = assertThrows(SchemaLoadException.class, () -> LarchSchema.load(List.of(missing)));
        assertEquals(missing + ": file not found", e.getMessage());
    }

    @Test
    void fileNamedLikeABundledSchemaIsRejected() throws IOException {
        Path core = write("core.schema", "");
        SchemaLoadException e = assertThrows(SchemaLoadException.class, () -> LarchSchema.load(List.of(core)));
        assertEquals(core + ": a schema named 'core' is already loaded; rename the file", e.getMessage());
    }

    @Test
    void standardIsOneSharedInstance() {
        assertSame(LarchSchema.standard(), LarchSchema.standard());
    }

    private static void assertOneLine(Exception e) {
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    /**
     * The API computes a syntax's human-readable flag on first read and stores it in two writes, the
     * "known" mark first: a second thread reading meanwhile is told the syntax is binary. A loaded schema
     * must have every such flag computed already, so that reading it writes nothing.
     */
    @Test
    void readingWhetherASyntaxIsHumanReadableChangesNothingOnceLoaded() throws Exception {
        Field known = LdapSyntax.class.getDeclaredField("hasHumanReadableFlag");
        Field readable = LdapSyntax.class.getDeclaredField("isHumanReadable");
        known.setAccessible(true);
        readable.setAccessible(true);
        int withExtension = 0;
        for (SchemaManager schema : List.of(LarchSchema.load(List.of(EXAMPLE)), LarchSchema.standard())) {
            for (LdapSyntax syntax : schema.getLdapSyntaxRegistry()) {
                boolean knownBefore = known.getBoolean(syntax);
                boolean readableBefore = readable.getBoolean(syntax);
                syntax.isHumanReadable();
                assertEquals(knownBefore, known.getBoolean(syntax), syntax.getOid() + ": flag computed on read");
                assertEquals(readableBefore, readable.getBoolean(syntax), syntax.getOid() + ": flag changed on read");
                withExtension += knownBefore ? 1 : 0;
            }
        }
        // The DN syntax is one of those that carry X-NOT-HUMAN-READABLE: the race was real for it.
        assertTrue(
                known.getBoolean(LarchSchema.standard().getLdapSyntaxRegistry().get("1.3.6.1.4.1.1466.115.121.1.12")));
        assertTrue(withExtension > 0);
    }
}
