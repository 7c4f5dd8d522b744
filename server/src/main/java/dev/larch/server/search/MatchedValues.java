package dev.larch.server.search;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.BerSequenceOf;
import org.apache.directory.api.ldap.model.filter.ExprNode;
import org.apache.directory.api.ldap.model.message.Control;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.controls.OpaqueControl;

/**
 * The matched values control (RFC 3876) on a search: its ValuesReturnFilter, a SEQUENCE OF
 * SimpleFilterItem (equality, substrings, greaterOrEqual, lessOrEqual, present, approxMatch,
 * extensibleMatch), keeps of each returned attribute only the values that some item matches, judged
 * with the attribute's own matching rules as a search filter would judge them (an item names an
 * attribute type and so also matches its subtypes). It never changes which entries are returned.
 * An attribute none of whose values match is returned with an empty set of values, as OpenLDAP does;
 * computed attributes (hasSubordinates, entryDN, subschemaSubentry, memberOf) are left whole.
 *
 * <p>RFC 3876 section 2 allows no and, or or not in the filter: such an item, or a value that is not a
 * ValuesReturnFilter, is protocolError. Anyone may send it; it only narrows what the client may already
 * read. Each value of each returned attribute is tested against each item: the cost is bounded by the
 * entry's size times the number of items, which the PDU size limit bounds. Immutable and thread-safe.
 */
public final class MatchedValues {
    public static final String OID = "1.2.826.0.1.3344810.2.3";

    private final List<Filter> items;

    private MatchedValues(List<Filter> items) {
        this.items = items;
    }

    /**
     * The filter of {@code request}'s matched values control; null when it carries none.
     *
     * @throws ResultCodeException protocolError for a value that is not a ValuesReturnFilter
     */
    public static MatchedValues of(Request request, FilterCompiler filters) {
        Control control = request.getControl(OID);
        if (control == null) {
            return null;
        }
        byte[] value = control instanceof OpaqueControl opaque ? opaque.getEncodedValue() : null;
        List<BerSequenceOf.Element> elements;
        try {
            elements = BerSequenceOf.read(value);
        } catch (BerSequenceOf.MalformedException e) {
            throw malformed(e.getMessage());
        }
        if (elements.isEmpty()) {
            throw malformed("it holds no filter item");
        }
        ControlFilterLimits.check(
                "matched values",
                elements.stream().map(BerSequenceOf.Element::encoded).toArray(byte[][]::new));
        List<Filter> items = new ArrayList<>(elements.size());
        for (BerSequenceOf.Element element : elements) {
            switch (element.tag()) {
                case 0xA0, 0xA1, 0xA2 -> throw malformed("and, or and not are not allowed (RFC 3876 section 2)");
                case 0xA3, 0xA4, 0xA5, 0xA6, 0x87, 0xA8, 0xA9 -> {}
                default -> throw malformed("an item is not a simple filter item");
            }
            ExprNode node = BerFilter.decode(element.tag() == 0xA9 ? inRuleOrder(element) : element.encoded());
            if (node == null) {
                throw malformed("an item is not a well-formed filter item");
            }
            items.add(filters.compile(node));
        }
        return new MatchedValues(List.copyOf(items));
    }

    /** The values of {@code attribute} of {@code entry} that some item matches, in stored order. */
    byte[][] matching(StoredEntry entry, StoredAttribute attribute) {
        byte[][] values = attribute.values();
        byte[][] normalized = attribute.normalized();
        List<byte[]> kept = new ArrayList<>(values.length);
        for (int i = 0; i < values.length; i++) {
            // The value alone, so that each item judges this value and no other.
            StoredEntry single = new StoredEntry(
                    entry.id(),
                    entry.parentId(),
                    entry.dn(),
                    List.of(new StoredAttribute(
                            attribute.oid(),
                            attribute.userId(),
                            new byte[][] {values[i]},
                            attribute.type(),
                            new byte[][] {normalized[i]})));
            for (Filter item : items) {
                if (item.evaluate(single) == Tri.TRUE) {
                    kept.add(values[i]);
                    break;
                }
            }
        }
        return kept.toArray(byte[][]::new);
    }

    /**
     * An extensibleMatch item with its fields in the order RFC 3876 gives (matchingRule [1], type [2],
     * matchValue [3]): the UnboundID SDK sends type before matchingRule, which the filter decoder
     * refuses. Only the order changes, so every length stays as it is.
     */
    private static byte[] inRuleOrder(BerSequenceOf.Element item) {
        byte[] asSequence = item.encoded().clone();
        asSequence[0] = 0x30;
        List<BerSequenceOf.Element> fields;
        try {
            fields = BerSequenceOf.read(asSequence);
        } catch (BerSequenceOf.MalformedException e) {
            throw malformed("an extensible match item is not a SEQUENCE: " + e.getMessage());
        }
        List<BerSequenceOf.Element> sorted = new ArrayList<>(fields);
        sorted.sort(Comparator.comparingInt(BerSequenceOf.Element::tag));
        byte[] out = item.encoded().clone();
        int at = item.valueOffset();
        for (BerSequenceOf.Element field : sorted) {
            System.arraycopy(field.encoded(), 0, out, at, field.encoded().length);
            at += field.encoded().length;
        }
        return out;
    }

    private static ResultCodeException malformed(String why) {
        return new ResultCodeException(
                ResultCodeEnum.PROTOCOL_ERROR,
                "the matched values control's value is not a ValuesReturnFilter: " + why);
    }
}
