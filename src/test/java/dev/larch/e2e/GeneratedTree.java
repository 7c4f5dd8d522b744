package dev.larch.e2e;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;

/**
 * A deterministic tree for import tests: the suffix, {@code ou=unit0..unit<U-1>} below it and
 * {@code people} inetOrgPersons spread over the units ({@code uid=user%05d}, person {@code i} in
 * unit {@code i % units}, surname {@code Last<i % 100>}). Tests compute expected answers from the
 * same rules.
 */
record GeneratedTree(int people, int units) {

    int entries() {
        return 1 + units + people;
    }

    static String uid(int i) {
        return String.format(Locale.ROOT, "user%05d", i);
    }

    String unitDn(int unit) {
        return "ou=unit" + unit + "," + TestData.SUFFIX;
    }

    String personDn(int i) {
        return "uid=" + uid(i) + "," + unitDn(i % units);
    }

    /** The DNs of the people whose index satisfies {@code which}, in index order. */
    List<String> personDns(IntPredicate which) {
        return IntStream.range(0, people).filter(which).mapToObj(this::personDn).toList();
    }

    /** Writes the tree as LDIF, parents before children. */
    void write(Path file) throws IOException {
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            out.write("""
                    dn: dc=example,dc=com
                    objectClass: dcObject
                    objectClass: organization
                    dc: example
                    o: Example Corp

                    """);
            for (int u = 0; u < units; u++) {
                out.write("dn: " + unitDn(u) + "\nobjectClass: organizationalUnit\nou: unit" + u + "\n\n");
            }
            for (int i = 0; i < people; i++) {
                out.write("dn: " + personDn(i) + "\n"
                        + "objectClass: inetOrgPerson\n"
                        + "uid: " + uid(i) + "\n"
                        + "cn: First" + i + " Last" + (i % 100) + "\n"
                        + "sn: Last" + (i % 100) + "\n"
                        + "givenName: First" + i + "\n"
                        + "mail: " + uid(i) + "@example.com\n"
                        + "telephoneNumber: +1 555 " + String.format(Locale.ROOT, "%07d", i) + "\n"
                        + "employeeNumber: " + i + "\n\n");
            }
        }
    }
}
