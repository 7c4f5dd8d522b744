package dev.larch.server.ldif;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.directory.api.ldap.model.ldif.LdifEntry;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LdifRecordsTest {
    private static List<String> dns(LdifRecords records) {
        List<String> dns = new ArrayList<>();
        for (LdifEntry e = records.read(); e != null; e = records.read()) {
            dns.add(e.getDn().getName());
        }
        return dns;
    }

    private static LdifRecords of(String ldif) {
        return new LdifRecords(new BufferedReader(new StringReader(ldif)));
    }

    @Test
    void readsEveryRecordThenNull() {
        LdifRecords records = of("""
                version: 1

                # the root
                dn: dc=example,dc=com
                objectClass: domain
                dc: example

                dn: ou=a,dc=example,dc=com
                objectClass: organizationalUnit
                ou: a
                description: folded
                  over two lines
                """);
        assertEquals(List.of("dc=example,dc=com", "ou=a,dc=example,dc=com"), dns(records));
        assertNull(records.read());
        assertEquals(2, records.position());
    }

    @Test
    void anEmptyInputHasNoRecords() {
        assertNull(of("").read());
    }

    @Test
    void aRecordBeforeABadOneIsStillReturned() {
        LdifRecords records = of("""
                dn: ou=good,dc=example,dc=com
                ou: good

                dn: ou=bad,dc=example,dc=com
                no colon here
                """);
        assertEquals("ou=good,dc=example,dc=com", records.read().getDn().getName());
        LdifImporter.ImportException e = assertThrows(LdifImporter.ImportException.class, records::read);
        assertEquals("entry 2 (ou=bad,dc=example,dc=com), near line 5: Bad attribute", e.getMessage());
    }

    @Test
    void aRecordWithoutDnIsNamedByItsFirstLine() {
        LdifImporter.ImportException e =
                assertThrows(LdifImporter.ImportException.class, () -> dns(of("objectClass: top\n")));
        assertTrue(e.getMessage().startsWith("entry 1 (objectClass: top), "), e.getMessage());
    }

    @Test
    void aReadErrorIsAnErrorNotTheEndOfInput() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < 1000; i++) {
            bytes.writeBytes(
                    ("dn: ou=u" + i + ",dc=example,dc=com\nou: u" + i + "\n\n").getBytes(StandardCharsets.UTF_8));
        }
        bytes.write(0xE9); // Latin-1, not UTF-8
        bytes.writeBytes("\n\ndn: ou=last,dc=example,dc=com\nou: last\n".getBytes(StandardCharsets.UTF_8));
        var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT);
        LdifRecords records = new LdifRecords(
                new BufferedReader(new InputStreamReader(new ByteArrayInputStream(bytes.toByteArray()), decoder)));

        LdifImporter.ImportException e = assertThrows(LdifImporter.ImportException.class, () -> dns(records));
        assertTrue(e.getMessage().contains("the file is not UTF-8"), e.getMessage());
    }
}
