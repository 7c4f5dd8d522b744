package dev.larch.server.access;

import java.io.IOException;
import java.util.List;
import java.util.Set;

import dev.larch.schema.LarchSchema;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AciParserTest {
    private static final AciSchema SCHEMA = new AciSchema(LarchSchema.standard());
    private static final AciParser PARSER = new AciParser(SCHEMA);
    private static final String CN = "2.5.4.3";
    private static final String USER_PASSWORD = "2.5.4.35";

    private static Aci parse(String text) throws AciSyntaxException {
        return PARSER.parse(text);
    }

    private static String error(String text) {
        return assertThrows(AciSyntaxException.class, () -> PARSER.parse(text)).getMessage();
    }

    @Test
    void parsesTheShapeEveryAciHas() throws Exception {
        Aci aci = parse("(version 3.0; acl \"read all\"; allow (read, search) userdn = \"ldap:///anyone\";)");
        assertEquals("read all", aci.name());
        assertEquals(AttributeScope.ALL, aci.target().attributes());
        assertNull(aci.target().dn());
        assertNull(aci.target().filter());
        assertEquals(TargetScope.SUBTREE, aci.target().scope());
        assertEquals(1, aci.rules().size());
        Aci.Rule rule = aci.rules().get(0);
        assertTrue(rule.allow());
        assertEquals(Rights.READ | Rights.SEARCH, rule.rights());
        Subject.UserDn subject = assertInstanceOf(Subject.UserDn.class, rule.subject());
        assertTrue(subject.anyone());
        assertFalse(subject.negated());
    }

    @Test
    void parsesEveryTargetKind() throws Exception {
        Aci aci = parse("(target = \"ldap:///uid=*,ou=People,dc=example,dc=com\")"
                + "(targetattr != \"userPassword || CN\")(targetfilter = \"(objectClass=person)\")"
                + "(targetscope = \"onelevel\")"
                + "(version 3.0; acl \"t\"; deny (all) userdn != \"ldap:///self\";)");
        assertTrue(aci.target().dn().isWildcard());
        assertTrue(aci.target()
                .dn()
                .matches(SCHEMA.pattern("UID=jdoe,ou=people,DC=Example,dc=com").canonical()));
        assertTrue(aci.target()
                .dn()
                .matches(SCHEMA.pattern("uid=jdoe,ou=sub,ou=People,dc=example,dc=com")
                        .canonical()));
        assertFalse(aci.target()
                .dn()
                .matches(SCHEMA.pattern("cn=jdoe,ou=People,dc=example,dc=com").canonical()));
        assertEquals(
                new AttributeScope(Set.of(USER_PASSWORD, CN), true, false),
                aci.target().attributes());
        assertNotNull(aci.target().filter());
        assertEquals(TargetScope.ONELEVEL, aci.target().scope());
        assertFalse(aci.rules().get(0).allow());
        assertEquals(Rights.ALL, aci.rules().get(0).rights());
        assertTrue(((Subject.UserDn) aci.rules().get(0).subject()).negated());
    }

    @Test
    void allLeavesOutProxyAsIn389() throws Exception {
        int rights = parse("(version 3.0; acl \"a\"; allow (all) userdn = \"ldap:///all\";)")
                .rules()
                .get(0)
                .rights();
        assertEquals(0, rights & Rights.PROXY);
        assertEquals(
                Rights.ALL | Rights.PROXY,
                parse("(version 3.0; acl \"a\"; allow (all, proxy) userdn = \"ldap:///all\";)")
                        .rules()
                        .get(0)
                        .rights());
    }

    @Test
    void combinesSubjectsWithAndBindingTighterThanOr() throws Exception {
        Subject s = parse(
                        "(version 3.0; acl \"c\"; allow (read) userdn = \"ldap:///all\" or ip = \"10.0.0.0/8\" and ssf >= \"128\";)")
                .rules()
                .get(0)
                .subject();
        Subject.Or or = assertInstanceOf(Subject.Or.class, s);
        assertInstanceOf(Subject.UserDn.class, or.left());
        Subject.And and = assertInstanceOf(Subject.And.class, or.right());
        assertInstanceOf(Subject.Ip.class, and.left());
        assertEquals(new Subject.Ssf(">=", 128), and.right());
    }

    @Test
    void parsesNotParenthesesAndEverySubjectKind() throws Exception {
        Aci aci = parse("(version 3.0; acl \"k\";"
                + " allow (write) not (authmethod = \"none\") and groupdn = \"ldap:///cn=Admins,dc=example,dc=com || ldap:///cn=Ops,dc=example,dc=com\";"
                + " allow (selfwrite) userattr = \"owner#USERDN\";"
                + " allow (read) userattr = \"manager#GROUPDN\";"
                + " allow (compare) userattr = \"title#Boss\";"
                + " deny (add, delete) ip != \"127.0.0.1, ::1\";"
                + " allow (proxy) authmethod = \"sasl EXTERNAL\";)");
        assertEquals(6, aci.rules().size());
        Subject.And and = assertInstanceOf(Subject.And.class, aci.rules().get(0).subject());
        assertInstanceOf(Subject.Not.class, and.left());
        assertEquals(
                2, assertInstanceOf(Subject.GroupDn.class, and.right()).groups().size());
        assertEquals(
                Subject.UserAttr.Kind.USERDN,
                ((Subject.UserAttr) aci.rules().get(1).subject()).kind());
        assertEquals(
                Subject.UserAttr.Kind.GROUPDN,
                ((Subject.UserAttr) aci.rules().get(2).subject()).kind());
        Subject.UserAttr value = (Subject.UserAttr) aci.rules().get(3).subject();
        assertEquals(Subject.UserAttr.Kind.VALUE, value.kind());
        assertEquals("Boss", value.value());
        Subject.Ip ip = (Subject.Ip) aci.rules().get(4).subject();
        assertTrue(ip.negated());
        assertEquals(2, ip.networks().size());
        assertEquals(Set.of("sasl"), ((Subject.AuthMethod) aci.rules().get(5).subject()).methods());
    }

    @Test
    void keywordsIgnoreCaseAndWhiteSpaceIsFree() throws Exception {
        Aci aci = parse("  ( TargetAttr=\"cn\" )(VERSION 3.0;ACL \"x\";ALLOW(Read)USERDN=\"LDAP:///ANYONE\";)  ");
        assertEquals(Set.of(CN), aci.target().attributes().oids());
        assertTrue(((Subject.UserDn) aci.rules().get(0).subject()).anyone());
    }

    @Test
    void unknownTargetAttributeIsRefusedStrictlyAndSkippedLeniently() throws Exception {
        String text =
                "(targetattr = \"cn || noSuchAttribute\")(version 3.0; acl \"x\"; allow (read) userdn = \"ldap:///anyone\";)";
        assertEquals("at 15: unknown attribute type 'noSuchAttribute' in targetattr", error(text));
        assertEquals(Set.of(CN), PARSER.parseLenient(text).target().attributes().oids());
    }

    @Test
    void errorsSayWhereAndWhatWasExpected() {
        assertEquals(
                "at 1: expected '(' to open the ACL body \"(version 3.0; acl ...\", found 'version 3.0;'",
                error("version 3.0; acl \"x\"; allow (read) userdn = \"ldap:///anyone\";"));
        assertEquals(
                "at 10: expected version 3.0, found '2.0'",
                error("(version 2.0; acl \"x\"; allow (read) userdn = \"ldap:///anyone\";)"));
        assertEquals(
                "at 23: expected ';' after the ACL name, found 'allow (read)'",
                error("(version 3.0; acl \"x\" allow (read) userdn = \"ldap:///anyone\";)"));
        assertEquals(
                "at 24: expected 'allow' or 'deny', found 'permit'",
                error("(version 3.0; acl \"x\"; permit (read) userdn = \"ldap:///anyone\";)"));
        assertEquals(
                "at 31: expected a right (read, search, compare, write, selfwrite, add, delete, proxy, all), found 'reed'",
                error("(version 3.0; acl \"x\"; allow (reed) userdn = \"ldap:///anyone\";)"));
        assertEquals(
                "at 37: expected a subject (userdn, groupdn, userattr, ip, authmethod, ssf), found 'user'",
                error("(version 3.0; acl \"x\"; allow (read) user = \"ldap:///anyone\";)"));
        assertEquals(
                "at 45: expected a quoted string, found '= \"ldap:///a'",
                error("(version 3.0; acl \"x\"; allow (read) userdn == \"ldap:///anyone\";)"));
        assertEquals(
                "at 46: the quoted string opened here is not closed",
                error("(version 3.0; acl \"x\"; allow (read) userdn = \"ldap:///anyone;)"));
        assertEquals(
                "at 62: expected ';' after the subject of a rule, found ')'",
                error("(version 3.0; acl \"x\"; allow (read) userdn = \"ldap:///anyone\")"));
        assertEquals(
                "at 63: expected ')' to close the ACL body, found 'end of text'",
                error("(version 3.0; acl \"x\"; allow (read) userdn = \"ldap:///anyone\";"));
        assertEquals(
                "at 65: expected the end of the ACI, found 'trailing'",
                error("(version 3.0; acl \"x\"; allow (read) userdn = \"ldap:///anyone\";) trailing"));
    }

    @Test
    void errorsInValuesPointAtTheValue() {
        assertEquals(
                "at 16: expected targetscope base, onelevel, subtree or subordinate, found 'tree'",
                error("(targetscope = \"tree\")(version 3.0; acl \"x\"; allow (read) userdn = \"ldap:///anyone\";)"));
        assertEquals(
                "at 11: expected an LDAP URL \"ldap:///DN\", found 'dc=example,dc=com'",
                error(
                        "(target = \"dc=example,dc=com\")(version 3.0; acl \"x\"; allow (read) userdn = \"ldap:///anyone\";)"));
        assertTrue(
                error("(targetfilter = \"(cn=x\")(version 3.0; acl \"x\"; allow (read) userdn = \"ldap:///anyone\";)")
                        .startsWith("at 17: targetfilter: '(cn=x' is not a valid LDAP filter"));
        assertTrue(error("(version 3.0; acl \"x\"; allow (read) userdn = \"ldap:///nosuchtype=x,dc=com\";)")
                .startsWith("at 46: 'nosuchtype=x,dc=com' is not a valid DN"));
        assertEquals(
                "at 42: ip: 'example.org' is not a numeric IP address or network",
                error("(version 3.0; acl \"x\"; allow (read) ip = \"example.org\";)"));
        assertEquals(
                "at 42: ip: '10.0.0.0/33': prefix length above 32",
                error("(version 3.0; acl \"x\"; allow (read) ip = \"10.0.0.0/33\";)"));
        // An IPv4 literal that is not one is refused without a name lookup (InetAddress would try one).
        assertEquals(
                "at 42: ip: '10.1.2.300' is not a numeric IP address or network",
                error("(version 3.0; acl \"x\"; allow (read) ip = \"10.1.2.300\";)"));
        assertEquals(
                "at 44: expected a security strength (0 to 9999), found 'high'",
                error("(version 3.0; acl \"x\"; allow (read) ssf >= \"high\";)"));
        assertEquals(
                "at 48: expected userattr \"attribute#USERDN\", \"attribute#GROUPDN\" or \"attribute#value\", found 'owner'",
                error("(version 3.0; acl \"x\"; allow (read) userattr = \"owner\";)"));
        assertEquals(
                "at 47: groupdn takes a DN, not a pattern: 'cn=*,dc=example,dc=com'",
                error("(version 3.0; acl \"x\"; allow (read) groupdn = \"ldap:///cn=*,dc=example,dc=com\";)"));
        assertEquals(
                "at 20: targetattr is given twice",
                error(
                        "(targetattr = \"cn\")(targetattr = \"sn\")(version 3.0; acl \"x\"; allow (read) userdn = \"ldap:///anyone\";)"));
    }

    @Test
    void boundsNestingAndLength() {
        String deep = "(".repeat(40) + "userdn = \"ldap:///anyone\"" + ")".repeat(40);
        assertTrue(error("(version 3.0; acl \"x\"; allow (read) " + deep + ";)")
                .contains("subjects may nest at most 32 deep"));
        assertTrue(error("(version 3.0; acl \"" + "x".repeat(AciParser.MAX_LENGTH)
                        + "\"; allow (read) userdn = \"ldap:///anyone\";)")
                .contains("at most 16384 characters"));
    }

    @Test
    void theShippedRulesParse() throws Exception {
        List<Aci> rules = AccessFile.parse(AccessFile.builtIn(), "built-in", PARSER);
        assertEquals(3, rules.size());
        assertTrue(rules.get(0).target().attributes().negated());
    }

    @Test
    void anEmptyValueInATargetfilterParses() throws Exception {
        // Found by AciParserFuzzTest (seed 20261128, case 12722): a NullPointerException before.
        assertNotNull(PARSER.parse(
                "(targetfilter = \"(ou=)\")(version 3.0; acl \"x\"; allow (read) userdn = \"ldap:///anyone\";)"));
    }

    @Test
    void accessFileErrorsNameTheLine() {
        var e = assertThrows(
                IOException.class,
                () -> AccessFile.parse(
                        "# comment\n\n(version 3.0; acl \"x\";\n  allow (reed) userdn = \"ldap:///anyone\";)\n",
                        "f.aci",
                        PARSER));
        assertEquals(
                "access.file: f.aci:3: at 31: expected a right (read, search, compare, write, selfwrite, add, delete, proxy, all), found 'reed'",
                e.getMessage());
    }
}
