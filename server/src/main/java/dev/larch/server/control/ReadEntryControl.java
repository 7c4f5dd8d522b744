package dev.larch.server.control;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.util.ArrayList;
import java.util.List;

import dev.larch.server.access.AccessControl;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.BerSequenceOf;
import dev.larch.server.protocol.Session;
import dev.larch.server.search.AttributeSelection;
import dev.larch.server.search.EntryScreen;
import dev.larch.server.search.Filter;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.ResultEntries;
import dev.larch.server.search.Tri;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.asn1.util.Asn1Buffer;
import org.apache.directory.api.ldap.codec.api.LdapApiService;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.codec.factory.SearchResultEntryFactory;
import org.apache.directory.api.ldap.model.filter.AndNode;
import org.apache.directory.api.ldap.model.message.Control;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.SearchResultEntry;
import org.apache.directory.api.ldap.model.message.controls.OpaqueControl;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * One of the read entry controls of RFC 4527: pre-read (a copy of the target entry before a delete,
 * modify or modify DN) or post-read (after an add, modify or modify DN). The copy is read in the
 * update's own write transaction and returned in a response control whose value is a BER
 * SearchResultEntry (tag 0x64, no LDAPMessage envelope).
 *
 * <p>The copy is what a search by the same session would return (RFC 4527 section 5): the requested
 * attributes ({@link AttributeSelection}, so {@code *}, {@code +} and {@code 1.1} as in a search) that
 * the client may read, hasSubordinates, entryDN, subschemaSubentry and memberOf (each group judged
 * for the client) when asked for. memberOf is as stored when the copy is made: a post-read copy of an
 * added entry lacks the groups that named it before it existed, which the transaction's memberOf
 * upkeep gives it just before the commit. When the client may not read the entry at all, a critical control fails the update
 * with insufficientAccessRights (nothing changes); a non-critical one is left unanswered. A control
 * value that is not an AttributeSelection is protocolError.
 *
 * <p>Anyone may send these controls; the copy costs one entry's encoding, bounded by the PDU size the
 * entry could be written with. Thread-safe.
 */
public final class ReadEntryControl {
    public static final String PRE_READ_OID = "1.3.6.1.1.13.1";
    public static final String POST_READ_OID = "1.3.6.1.1.13.2";

    private static final Filter ANY = new Filter.And(List.of());

    /** What a request asked for: the attributes to copy, and whether it must be answered. */
    public record Requested(AttributeSelection attributes, boolean critical) {}

    private final String oid;
    private final String name;
    private final AccessControl access;
    private final FilterCompiler filters;
    private final SchemaManager schema;
    private final ResultEntries results;
    private final LdapApiService codec = LdapApiServiceFactory.getSingleton();

    private ReadEntryControl(String oid, String name, AccessControl access, Directory directory) {
        PreEncodedControlFactory.register(codec, PRE_READ_OID, POST_READ_OID);
        SchemaManager schema = directory.schemaNormalizer().schema();
        this.results = new ResultEntries(directory);
        this.oid = oid;
        this.name = name;
        this.access = access;
        this.schema = schema;
        this.filters = new FilterCompiler(schema);
    }

    /** The pre-read control: the entry before the update. */
    public static ReadEntryControl preRead(AccessControl access, Directory directory) {
        return new ReadEntryControl(PRE_READ_OID, "pre-read", access, directory);
    }

    /** The post-read control: the entry after the update. */
    public static ReadEntryControl postRead(AccessControl access, Directory directory) {
        return new ReadEntryControl(POST_READ_OID, "post-read", access, directory);
    }

    /**
     * What {@code request}'s control asks for, decoded before the update is queued; null when it
     * carries none.
     *
     * @throws ResultCodeException protocolError when the value is not an AttributeSelection
     */
    public Requested requested(Request request) {
        Control control = request.getControl(oid);
        if (control == null) {
            return null;
        }
        byte[] value = control instanceof OpaqueControl opaque ? opaque.getEncodedValue() : null;
        return new Requested(AttributeSelection.of(attributeNames(value), schema), control.isCritical());
    }

    /**
     * The response control carrying {@code entry} as the session may see it, read in {@code txn}; null
     * when nothing was requested, or when the entry may not be read and the control is not critical.
     *
     * @throws ResultCodeException insufficientAccessRights when a critical control asks for an entry
     *     the session may not read
     */
    public Control read(Requested requested, Session session, ReadTxn txn, StoredEntry entry) {
        if (requested == null) {
            return null;
        }
        EntryScreen screen = access.forSearch(session, txn, new AndNode(), filters);
        if (screen.evaluate(entry, ANY) != Tri.TRUE) {
            if (!requested.critical()) {
                return null;
            }
            throw new ResultCodeException(
                    ResultCodeEnum.INSUFFICIENT_ACCESS_RIGHTS,
                    "the " + name + " control asks for an entry this identity may not read; nothing was changed");
        }
        SearchResultEntry copy = results.build(0, entry, requested.attributes(), false, screen, txn);
        OpaqueControl response = new OpaqueControl(oid, false);
        response.setEncodedValue(encode(copy));
        return response;
    }

    /** Adds the copies that were made (either may be null) to a successful update's response. */
    public static void attach(ResultResponse response, Control preCopy, Control postCopy) {
        if (preCopy != null) {
            response.addControl(preCopy);
        }
        if (postCopy != null) {
            response.addControl(postCopy);
        }
    }

    /** The BER of the SearchResultEntry protocolOp alone. */
    private byte[] encode(SearchResultEntry entry) {
        Asn1Buffer buffer = new Asn1Buffer();
        SearchResultEntryFactory.INSTANCE.encodeReverse(codec, buffer, entry);
        ByteBuffer bytes = buffer.getBytes();
        byte[] out = new byte[bytes.remaining()];
        bytes.get(out);
        return out;
    }

    /**
     * The LDAPStrings of an AttributeSelection ({@code SEQUENCE OF LDAPString}); each must be an
     * OCTET STRING (0x04) of valid UTF-8.
     */
    private List<String> attributeNames(byte[] value) {
        List<BerSequenceOf.Element> elements;
        try {
            elements = BerSequenceOf.read(value);
        } catch (BerSequenceOf.MalformedException e) {
            throw malformed(e.getMessage());
        }
        List<String> names = new ArrayList<>(elements.size());
        for (BerSequenceOf.Element element : elements) {
            if (element.tag() != 0x04) {
                throw malformed("an attribute selector is not an OCTET STRING");
            }
            try {
                names.add(UTF_8.newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(element.value()))
                        .toString());
            } catch (CharacterCodingException e) {
                throw malformed("an attribute selector is not UTF-8");
            }
        }
        return names;
    }

    private ResultCodeException malformed(String why) {
        return new ResultCodeException(
                ResultCodeEnum.PROTOCOL_ERROR, "the " + name + " control's value is not an AttributeSelection: " + why);
    }
}
