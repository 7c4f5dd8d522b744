package dev.larch.server.fuzz;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.apache.directory.api.asn1.util.Asn1Buffer;
import org.apache.directory.api.ldap.codec.api.LdapApiService;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.codec.api.LdapEncoder;
import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.entry.DefaultModification;
import org.apache.directory.api.ldap.model.entry.ModificationOperation;
import org.apache.directory.api.ldap.model.message.AbandonRequestImpl;
import org.apache.directory.api.ldap.model.message.AddRequestImpl;
import org.apache.directory.api.ldap.model.message.AliasDerefMode;
import org.apache.directory.api.ldap.model.message.BindRequestImpl;
import org.apache.directory.api.ldap.model.message.CompareRequestImpl;
import org.apache.directory.api.ldap.model.message.DeleteRequestImpl;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.ModifyDnRequestImpl;
import org.apache.directory.api.ldap.model.message.ModifyRequestImpl;
import org.apache.directory.api.ldap.model.message.SearchRequestImpl;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.apache.directory.api.ldap.model.message.UnbindRequestImpl;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.name.Rdn;

/**
 * The inputs the fuzzer starts from: well-formed request PDUs of every LDAP operation, encoded by
 * the Apache Directory API encoder (the client side of the codec the server decodes with), with
 * controls and extended requests written with {@link Ber}; and generators for the shapes a hostile
 * client sends on purpose: filters nested or wide beyond the limits, huge DNs and malformed lengths.
 *
 * <p>The fixed PDUs are built once; the generators are pure functions of the random source they are
 * given, so a case rebuilt from the same seed is the same bytes. Immutable after construction and
 * safe to share.
 */
final class PduCorpus {
    static final String SUFFIX = "dc=example,dc=com";
    static final String ADMIN_DN = "cn=admin," + SUFFIX;
    static final String ADMIN_PASSWORD = "secret";
    static final String USER_DN = "uid=jdoe,ou=people," + SUFFIX;
    static final String USER_PASSWORD = "jdoe-secret";

    static final String WHO_AM_I = "1.3.6.1.4.1.4203.1.11.3";
    static final String START_TLS = "1.3.6.1.4.1.1466.20037";
    static final String CANCEL = "1.3.6.1.1.8";
    static final String PASSWORD_MODIFY = "1.3.6.1.4.1.4203.1.11.1";
    static final String NOTICE_OF_DISCONNECTION = "1.3.6.1.4.1.1466.20036";

    private static final String[] FILTERS = {
        "(objectClass=*)",
        "(uid=jdoe)",
        "(cn=J*n*e)",
        "(cn=*)",
        "(&(objectClass=person)(!(sn=nobody)))",
        "(|(sn>=a)(sn<=m))",
        "(cn~=jon doe)",
        "(cn:caseExactMatch:=John Doe)",
        "(:dn:2.5.13.5:=people)",
        "(uid:=jdoe)",
        "(mail=*@example.com)",
        "(noSuchAttribute=1)",
        "(objectClass=inetOrgPerson)",
        "(&(|(uid=a*)(uid=*b)(cn=*c*))(!(objectClass=organizationalUnit)))",
    };

    private static final String[][] SEARCHES = {
        // base, scope (0 base, 1 one, 2 sub), attributes...
        {SUFFIX, "2"},
        {SUFFIX, "1", "cn", "sn"},
        {"ou=people," + SUFFIX, "2", "*", "+"},
        {"", "0", "+", "*"},
        {"cn=Subschema", "0", "+"},
        {USER_DN, "0", "userPassword", "1.1"},
        {"ou=nowhere," + SUFFIX, "2"},
    };

    /** Controls, each a complete {@code Control} SEQUENCE (RFC 4511 §4.1.11). */
    private final List<byte[]> controls = List.of(
            control("1.2.840.113556.1.4.319", false, Ber.tlv(Ber.SEQUENCE, Ber.integer(2), Ber.octets(""))),
            control("1.2.840.113556.1.4.319", true, Ber.tlv(Ber.SEQUENCE, Ber.integer(1), Ber.octets("cookie"))),
            control("2.16.840.1.113730.3.4.2", true, (byte[]) null), // ManageDsaIT
            control(
                    "1.2.840.113556.1.4.473",
                    false,
                    Ber.tlv(Ber.SEQUENCE, Ber.tlv(Ber.SEQUENCE, Ber.octets("sn"), Ber.tlv(0x81, new byte[] {-1})))),
            control("1.3.6.1.4.1.4203.1.10.1", false, Ber.bool(true)), // subentries
            control("2.16.840.1.113730.3.4.18", true, "dn:" + USER_DN), // proxied authorization
            control("1.2.3.4.5.6.7", true, (byte[]) null), // unknown and critical
            control("1.2.3.4.5.6.8", false, Ber.octets("opaque")),
            control("1.3.6.1.1.12", true, Ber.tlv(0xa3, Ber.octets("cn"), Ber.octets("x")))); // assertion

    private final List<byte[]> seeds;
    private final LdapApiService codec = LdapApiServiceFactory.getSingleton();

    PduCorpus() {
        this.seeds = List.copyOf(buildSeeds());
    }

    /** The fixed well-formed PDUs, every operation at least once. */
    List<byte[]> seeds() {
        return seeds;
    }

    byte[] adminBind(int messageId) {
        return encode(bind(messageId, ADMIN_DN, ADMIN_PASSWORD));
    }

    /** A subtree search of the suffix for every entry, with no attributes ({@code 1.1}). */
    byte[] probeSearch(int messageId) {
        SearchRequestImpl search = search(messageId, SUFFIX, SearchScope.SUBTREE, "(objectClass=*)", "1.1");
        return encode(search);
    }

    /** A random control block ({@code [0] Controls}) of one to three controls. */
    byte[] randomControls(SplittableRandom random) {
        int n = 1 + random.nextInt(3);
        byte[][] chosen = new byte[n][];
        for (int i = 0; i < n; i++) {
            chosen[i] = controls.get(random.nextInt(controls.size()));
        }
        return Ber.tlv(0xa0, chosen);
    }

    /** {@code pdu} (a well-formed LDAPMessage) with a control block appended inside its SEQUENCE. */
    static byte[] withControls(byte[] pdu, byte[] controlBlock) {
        List<BerElements.Element> elements = BerElements.of(pdu);
        if (elements.isEmpty() || elements.get(0).end() != pdu.length) {
            return pdu;
        }
        BerElements.Element outer = elements.get(0);
        byte[] inner = Arrays.copyOfRange(pdu, outer.valueAt(), outer.end());
        return Ber.tlv(Ber.SEQUENCE, inner, controlBlock);
    }

    /** {@code pdu} with its message ID replaced, or unchanged when its envelope does not parse. */
    static byte[] withMessageId(byte[] pdu, int messageId) {
        List<BerElements.Element> elements = BerElements.of(pdu);
        if (elements.size() < 2
                || elements.get(0).end() != pdu.length
                || pdu[elements.get(1).start()] != Ber.INTEGER) {
            return pdu;
        }
        BerElements.Element outer = elements.get(0);
        BerElements.Element id = elements.get(1);
        return Ber.tlv(Ber.SEQUENCE, Ber.integer(messageId), Arrays.copyOfRange(pdu, id.end(), outer.end()));
    }

    /** A search request whose filter nests {@code depth} levels of and/or/not around one equality. */
    static byte[] deepFilterSearch(int messageId, int depth, SplittableRandom random) {
        byte[] filter = Ber.tlv(0xa3, Ber.octets("cn"), Ber.octets("x"));
        for (int level = 1; level < depth; level++) {
            int tag = switch (random.nextInt(3)) {
                case 0 -> 0xa0; // and
                case 1 -> 0xa1; // or
                default -> 0xa2; // not
            };
            filter = Ber.tlv(tag, filter);
        }
        return rawSearch(messageId, SUFFIX, filter);
    }

    /** A search request whose filter is one and/or of {@code terms} simple filters. */
    static byte[] wideFilterSearch(int messageId, int terms, SplittableRandom random) {
        byte[][] items = new byte[terms][];
        for (int i = 0; i < terms; i++) {
            String value = "v" + i;
            items[i] = switch (random.nextInt(4)) {
                case 0 -> Ber.tlv(0xa3, Ber.octets("uid"), Ber.octets(value)); // equality
                case 1 ->
                    Ber.tlv(0xa4, Ber.octets("cn"), Ber.tlv(Ber.SEQUENCE, Ber.tlv(0x80, bytes(value)))); // initial
                case 2 -> Ber.tlv(0x87, bytes("mail")); // present
                default -> Ber.tlv(0xa5, Ber.octets("sn"), Ber.octets(value)); // greaterOrEqual
            };
        }
        return rawSearch(messageId, SUFFIX, Ber.tlv(random.nextBoolean() ? 0xa1 : 0xa0, items));
    }

    /** A DN of about {@code size} characters: one long RDN value or many short RDNs. */
    static String hugeDn(int size, SplittableRandom random) {
        StringBuilder dn = new StringBuilder(size + SUFFIX.length() + 8);
        if (random.nextBoolean()) {
            dn.append("cn=").append("a".repeat(Math.max(1, size))).append(',');
        } else {
            while (dn.length() < size) {
                dn.append(random.nextBoolean() ? "cn=a," : "ou=\\2C+sn=b,");
            }
        }
        return dn.append(SUFFIX).toString();
    }

    /** A well-formed request carrying a huge DN in its name field. */
    byte[] hugeDnRequest(int messageId, int size, SplittableRandom random) {
        String dn = hugeDn(size, random);
        return switch (random.nextInt(5)) {
            case 0 -> rawSearch(messageId, dn, Ber.tlv(0x87, bytes("objectClass")));
            case 1 ->
                Ber.tlv(
                        Ber.SEQUENCE,
                        Ber.integer(messageId),
                        Ber.tlv(0x60, Ber.integer(3), Ber.octets(dn), Ber.tlv(0x80, bytes("pw"))));
            case 2 ->
                Ber.tlv(
                        Ber.SEQUENCE,
                        Ber.integer(messageId),
                        Ber.tlv(0x6e, Ber.octets(dn), Ber.tlv(Ber.SEQUENCE, Ber.octets("cn"), Ber.octets("a"))));
            case 3 -> Ber.tlv(Ber.SEQUENCE, Ber.integer(messageId), Ber.tlv(0x4a, bytes(dn)));
            default ->
                Ber.tlv(
                        Ber.SEQUENCE,
                        Ber.integer(messageId),
                        Ber.tlv(0x6c, Ber.octets(dn), Ber.octets("cn=b"), Ber.bool(true), Ber.tlv(0x80, bytes(dn))));
        };
    }

    /**
     * {@code pdu} with its outer length rewritten in one of the shapes RFC 4511 §5.1 or the server's
     * limits refuse, or that a careless encoder produces: non-minimal long form, past the end, short,
     * indefinite, zero, beyond the PDU limit, more length octets than an int holds.
     */
    static byte[] malformedOuterLength(byte[] pdu, SplittableRandom random) {
        List<BerElements.Element> elements = BerElements.of(pdu);
        if (elements.isEmpty()) {
            return pdu;
        }
        BerElements.Element outer = elements.get(0);
        byte[] value = Arrays.copyOfRange(pdu, outer.valueAt(), outer.end());
        byte[] tag = {pdu[0]};
        int length = value.length;
        return switch (random.nextInt(8)) {
            case 0 -> Ber.concat(tag, Ber.longFormLength(length, 1 + random.nextInt(3)), value);
            case 1 -> Ber.concat(tag, Ber.length(length + 1 + random.nextInt(64)), value);
            case 2 -> Ber.concat(tag, Ber.length(Math.max(0, length - 1 - random.nextInt(Math.max(1, length)))), value);
            case 3 -> Ber.concat(tag, new byte[] {(byte) 0x80}, value, new byte[2]);
            case 4 -> Ber.concat(tag, new byte[] {0});
            case 5 -> Ber.concat(tag, Ber.longFormLength(0x7fff_ffffL - random.nextInt(16), 0), value);
            case 6 -> Ber.concat(tag, new byte[] {(byte) 0x85, 0, 0, 0, 1, 0}, value);
            default -> Ber.concat(tag, Ber.longFormLength(9L * 1024 * 1024 + random.nextInt(1024), 0), value);
        };
    }

    private static byte[] rawSearch(int messageId, String base, byte[] filter) {
        return Ber.tlv(
                Ber.SEQUENCE,
                Ber.integer(messageId),
                Ber.tlv(
                        0x63,
                        Ber.octets(base),
                        Ber.tlv(Ber.ENUMERATED, new byte[] {2}),
                        Ber.tlv(Ber.ENUMERATED, new byte[] {0}),
                        Ber.integer(0),
                        Ber.integer(0),
                        Ber.bool(false),
                        filter,
                        Ber.tlv(Ber.SEQUENCE, new byte[0])));
    }

    private List<byte[]> buildSeeds() {
        List<byte[]> out = new ArrayList<>();
        int id = 1;
        out.add(encode(bind(id++, ADMIN_DN, ADMIN_PASSWORD)));
        out.add(encode(bind(id++, USER_DN, USER_PASSWORD)));
        out.add(encode(bind(id++, USER_DN, "wrong")));
        out.add(encode(bind(id++, "", "")));
        out.add(encode(bind(id++, "uid=nobody,ou=people," + SUFFIX, "pw")));
        out.add(encode(bind(id++, ADMIN_DN, "")));
        BindRequestImpl sasl = new BindRequestImpl();
        sasl.setMessageId(id++);
        sasl.setVersion3(true);
        sasl.setName("");
        sasl.setSimple(false);
        sasl.setSaslMechanism("PLAIN");
        sasl.setCredentials("\0jdoe\0secret".getBytes(StandardCharsets.UTF_8));
        out.add(encode(sasl));
        for (String filter : FILTERS) {
            for (String[] s : SEARCHES) {
                SearchRequestImpl search = search(
                        id++,
                        s[0],
                        SearchScope.getSearchScope(Integer.parseInt(s[1])),
                        filter,
                        Arrays.copyOfRange(s, 2, s.length));
                out.add(encode(search));
            }
        }
        SearchRequestImpl limited = search(id++, SUFFIX, SearchScope.SUBTREE, "(objectClass=*)");
        limited.setSizeLimit(1);
        limited.setTimeLimit(1);
        limited.setTypesOnly(true);
        out.add(encode(limited));
        for (int i = 0; i < 4; i++) {
            out.add(encode(add(id++, "cn=fuzz" + i + ",ou=fuzz," + SUFFIX, i)));
        }
        out.add(encode(add(id++, "cn=orphan,ou=missing," + SUFFIX, 0)));
        out.add(encode(modify(id++, "cn=fuzz0,ou=fuzz," + SUFFIX, ModificationOperation.REPLACE_ATTRIBUTE, "sn", "x")));
        out.add(encode(
                modify(id++, "cn=fuzz1,ou=fuzz," + SUFFIX, ModificationOperation.ADD_ATTRIBUTE, "description", "d")));
        out.add(encode(
                modify(id++, "cn=fuzz1,ou=fuzz," + SUFFIX, ModificationOperation.REMOVE_ATTRIBUTE, "description")));
        out.add(encode(modify(id++, USER_DN, ModificationOperation.INCREMENT_ATTRIBUTE, "uidNumber", "1")));
        out.add(encode(modify(id++, USER_DN, ModificationOperation.REPLACE_ATTRIBUTE, "objectClass", "top")));
        out.add(encode(delete(id++, "cn=fuzz2,ou=fuzz," + SUFFIX)));
        out.add(encode(delete(id++, "ou=people," + SUFFIX)));
        out.add(encode(modifyDn(id++, "cn=fuzz3,ou=fuzz," + SUFFIX, "cn=fuzz3b", null, true)));
        out.add(encode(modifyDn(id++, "cn=fuzz3b,ou=fuzz," + SUFFIX, "cn=fuzz3", "ou=people," + SUFFIX, false)));
        out.add(encode(modifyDn(id++, "cn=fuzz0,ou=fuzz," + SUFFIX, "cn=fuzz0", "cn=fuzz0,ou=fuzz," + SUFFIX, true)));
        out.add(encode(compare(id++, USER_DN, "cn", "John Doe")));
        out.add(encode(compare(id++, USER_DN, "userPassword", USER_PASSWORD)));
        out.add(encode(compare(id++, USER_DN, "noSuchAttribute", "x")));
        AbandonRequestImpl abandon = new AbandonRequestImpl(2);
        abandon.setMessageId(id++);
        out.add(encode(abandon));
        out.add(extended(id++, WHO_AM_I, null));
        out.add(extended(id++, START_TLS, null));
        out.add(extended(id++, CANCEL, Ber.tlv(Ber.SEQUENCE, Ber.integer(2))));
        out.add(extended(
                id++,
                PASSWORD_MODIFY,
                Ber.tlv(Ber.SEQUENCE, Ber.tlv(0x80, bytes(USER_DN)), Ber.tlv(0x82, bytes("new")))));
        out.add(extended(id++, NOTICE_OF_DISCONNECTION, null));
        out.add(extended(id++, "1.2.3.4.5", bytes("value")));
        UnbindRequestImpl unbind = new UnbindRequestImpl();
        unbind.setMessageId(id);
        out.add(encode(unbind));
        return out;
    }

    private static byte[] control(String oid, boolean critical, String value) {
        return control(oid, critical, bytes(value));
    }

    /** A Control; {@code value} is the raw controlValue content, null for none. */
    private static byte[] control(String oid, boolean critical, byte[] value) {
        List<byte[]> parts = new ArrayList<>();
        parts.add(Ber.octets(oid));
        if (critical) {
            parts.add(Ber.bool(true));
        }
        if (value != null) {
            parts.add(Ber.tlv(Ber.OCTET_STRING, value));
        }
        return Ber.tlv(Ber.SEQUENCE, parts.toArray(byte[][]::new));
    }

    private static byte[] extended(int messageId, String oid, byte[] value) {
        byte[] name = Ber.tlv(0x80, bytes(oid));
        byte[] op = value == null ? Ber.tlv(0x77, name) : Ber.tlv(0x77, name, Ber.tlv(0x81, value));
        return Ber.tlv(Ber.SEQUENCE, Ber.integer(messageId), op);
    }

    private static BindRequestImpl bind(int messageId, String dn, String password) {
        BindRequestImpl bind = new BindRequestImpl();
        bind.setMessageId(messageId);
        bind.setVersion3(true);
        bind.setSimple(true);
        bind.setName(dn);
        bind.setCredentials(bytes(password));
        return bind;
    }

    private static SearchRequestImpl search(
            int messageId, String base, SearchScope scope, String filter, String... attributes) {
        try {
            SearchRequestImpl search = new SearchRequestImpl();
            search.setMessageId(messageId);
            search.setBase(new Dn(base));
            search.setScope(scope);
            search.setDerefAliases(AliasDerefMode.NEVER_DEREF_ALIASES);
            search.setFilter(filter);
            search.addAttributes(attributes);
            return search;
        } catch (Exception e) {
            throw new IllegalStateException("corpus search " + filter + " on " + base, e);
        }
    }

    private static AddRequestImpl add(int messageId, String dn, int variant) {
        try {
            AddRequestImpl add = new AddRequestImpl();
            add.setMessageId(messageId);
            DefaultEntry entry = new DefaultEntry(dn);
            entry.add("objectClass", "top", "person");
            entry.add("cn", new Dn(dn).getRdn().getValue());
            if (variant != 3) {
                entry.add("sn", "fuzz"); // variant 3 lacks the required sn: objectClassViolation
            }
            if (variant == 1) {
                entry.add("userPassword", "fuzz-pw");
            }
            add.setEntry(entry);
            return add;
        } catch (Exception e) {
            throw new IllegalStateException("corpus add " + dn, e);
        }
    }

    private static ModifyRequestImpl modify(
            int messageId, String dn, ModificationOperation operation, String attribute, String... values) {
        try {
            ModifyRequestImpl modify = new ModifyRequestImpl();
            modify.setMessageId(messageId);
            modify.setName(new Dn(dn));
            modify.addModification(new DefaultModification(operation, attribute, values));
            return modify;
        } catch (Exception e) {
            throw new IllegalStateException("corpus modify " + dn, e);
        }
    }

    private static DeleteRequestImpl delete(int messageId, String dn) {
        try {
            DeleteRequestImpl delete = new DeleteRequestImpl();
            delete.setMessageId(messageId);
            delete.setName(new Dn(dn));
            return delete;
        } catch (Exception e) {
            throw new IllegalStateException("corpus delete " + dn, e);
        }
    }

    private static ModifyDnRequestImpl modifyDn(
            int messageId, String dn, String newRdn, String newSuperior, boolean deleteOldRdn) {
        try {
            ModifyDnRequestImpl modifyDn = new ModifyDnRequestImpl();
            modifyDn.setMessageId(messageId);
            modifyDn.setName(new Dn(dn));
            modifyDn.setNewRdn(new Rdn(newRdn));
            modifyDn.setDeleteOldRdn(deleteOldRdn);
            if (newSuperior != null) {
                modifyDn.setNewSuperior(new Dn(newSuperior));
            }
            return modifyDn;
        } catch (Exception e) {
            throw new IllegalStateException("corpus modDN " + dn, e);
        }
    }

    private static CompareRequestImpl compare(int messageId, String dn, String attribute, String value) {
        try {
            CompareRequestImpl compare = new CompareRequestImpl();
            compare.setMessageId(messageId);
            compare.setName(new Dn(dn));
            compare.setAttributeId(attribute);
            compare.setAssertionValue(value);
            return compare;
        } catch (Exception e) {
            throw new IllegalStateException("corpus compare " + dn, e);
        }
    }

    private byte[] encode(Message message) {
        try {
            ByteBuffer encoded = LdapEncoder.encodeMessage(new Asn1Buffer(), codec, message);
            byte[] out = new byte[encoded.remaining()];
            encoded.get(out);
            return out;
        } catch (Exception e) {
            throw new IllegalStateException("corpus message does not encode: " + message, e);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
