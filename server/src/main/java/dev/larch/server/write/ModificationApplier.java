package dev.larch.server.write;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import dev.larch.server.auth.policy.PolicyAttributes;
import dev.larch.server.directory.SchemaNormalizer;
import dev.larch.server.error.ResultCodeException;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.DefaultAttribute;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Modification;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.name.Ava;
import org.apache.directory.api.ldap.model.schema.AttributeType;

/**
 * Applies the changes of one modify request (RFC 4511 section 4.6, RFC 4525 increment) to a
 * schema-aware copy of the entry, failing with the code a client expects for each broken rule.
 */
final class ModificationApplier {
    private static final String INTEGER_SYNTAX = "1.3.6.1.4.1.1466.115.121.1.27";

    private final SchemaNormalizer schemaNormalizer;

    ModificationApplier(SchemaNormalizer schemaNormalizer) {
        this.schemaNormalizer = schemaNormalizer;
    }

    void apply(Entry entry, Iterable<Modification> modifications) {
        apply(entry, modifications, false);
    }

    /**
     * @param admin whether the administrator asks: then the password policy attributes an operator
     *     needs ({@link PolicyAttributes#adminWritable}) may be written although NO-USER-MODIFICATION
     */
    void apply(Entry entry, Iterable<Modification> modifications, boolean admin) {
        apply(entry, modifications, admin, false);
    }

    /**
     * @param permissive the permissive modify control (1.2.840.113556.1.4.1413): adding a value the
     *     attribute has, or deleting one (or an attribute) it does not have, is not an error
     */
    void apply(Entry entry, Iterable<Modification> modifications, boolean admin, boolean permissive) {
        for (Modification mod : modifications) {
            Attribute change = schemaNormalizer.attribute(mod.getAttribute().getUpId(), mod.getAttribute());
            AttributeType type = change.getAttributeType();
            if (!type.isUserModifiable() && !(admin && PolicyAttributes.adminWritable(type))) {
                throw new ResultCodeException(
                        ResultCodeEnum.CONSTRAINT_VIOLATION, change.getUpId() + ": no user modification allowed");
            }
            switch (mod.getOperation()) {
                case ADD_ATTRIBUTE -> add(entry, change, permissive);
                case REMOVE_ATTRIBUTE -> remove(entry, change, permissive);
                case REPLACE_ATTRIBUTE -> replace(entry, change);
                case INCREMENT_ATTRIBUTE -> increment(entry, change);
                default ->
                    throw new ResultCodeException(ResultCodeEnum.PROTOCOL_ERROR, "unknown modification operation");
            }
        }
        for (Ava ava : entry.getDn().getRdn()) {
            Attribute naming = entry.get(ava.getAttributeType());
            if (naming == null || !naming.contains(ava.getValue())) {
                throw new ResultCodeException(
                        ResultCodeEnum.NOT_ALLOWED_ON_RDN,
                        "cannot remove the naming value " + ava.getName() + "; rename the entry instead");
            }
        }
    }

    private static void add(Entry entry, Attribute change, boolean permissive) {
        if (change.size() == 0) {
            throw new ResultCodeException(
                    ResultCodeEnum.PROTOCOL_ERROR, change.getUpId() + ": add needs at least one value");
        }
        Attribute existing = entry.get(change.getAttributeType());
        if (existing == null) {
            put(entry, change);
            return;
        }
        for (Value v : change) {
            if (existing.contains(v)) {
                if (permissive) {
                    continue;
                }
                throw new ResultCodeException(
                        ResultCodeEnum.ATTRIBUTE_OR_VALUE_EXISTS, change.getUpId() + ": value #0 already exists");
            }
            addValue(existing, v);
        }
    }

    private static void addValue(Attribute attribute, Value value) {
        try {
            attribute.add(value);
        } catch (LdapException e) {
            throw new ResultCodeException(
                    ResultCodeEnum.INVALID_ATTRIBUTE_SYNTAX, attribute.getUpId() + ": invalid value");
        }
    }

    private static void remove(Entry entry, Attribute change, boolean permissive) {
        Attribute existing = entry.get(change.getAttributeType());
        if (existing == null) {
            if (permissive) {
                return;
            }
            throw new ResultCodeException(ResultCodeEnum.NO_SUCH_ATTRIBUTE, change.getUpId() + ": no such attribute");
        }
        if (change.size() == 0) {
            entry.removeAttributes(change.getAttributeType());
            return;
        }
        for (Value v : change) {
            if (!existing.remove(v) && !permissive) {
                throw new ResultCodeException(ResultCodeEnum.NO_SUCH_ATTRIBUTE, change.getUpId() + ": no such value");
            }
        }
        if (existing.size() == 0) {
            entry.removeAttributes(change.getAttributeType());
        }
    }

    private static void replace(Entry entry, Attribute change) {
        entry.removeAttributes(change.getAttributeType());
        if (change.size() > 0) {
            put(entry, change);
        }
    }

    private void increment(Entry entry, Attribute change) {
        AttributeType type = change.getAttributeType();
        if (!INTEGER_SYNTAX.equals(type.getSyntaxOid())) {
            throw new ResultCodeException(
                    ResultCodeEnum.CONSTRAINT_VIOLATION, change.getUpId() + ": increment needs an integer attribute");
        }
        if (change.size() != 1) {
            throw new ResultCodeException(
                    ResultCodeEnum.PROTOCOL_ERROR, change.getUpId() + ": increment needs exactly one value");
        }
        Attribute existing = entry.get(type);
        if (existing == null) {
            throw new ResultCodeException(
                    ResultCodeEnum.NO_SUCH_ATTRIBUTE, change.getUpId() + ": no such attribute to increment");
        }
        BigInteger delta = integer(change.get().getString(), change.getUpId());
        List<Value> incremented = new ArrayList<>();
        for (Value v : existing) {
            BigInteger next = integer(v.getString(), change.getUpId()).add(delta);
            incremented.add(schemaNormalizer.value(type, next.toString().getBytes(StandardCharsets.UTF_8)));
        }
        Attribute replacement = new DefaultAttribute(existing.getUpId(), type);
        for (Value v : incremented) {
            addValue(replacement, v);
        }
        entry.removeAttributes(type);
        put(entry, replacement);
    }

    private static BigInteger integer(String text, String attribute) {
        try {
            return new BigInteger(text.trim());
        } catch (NumberFormatException e) {
            throw new ResultCodeException(ResultCodeEnum.CONSTRAINT_VIOLATION, attribute + ": not an integer");
        }
    }

    private static void put(Entry entry, Attribute attribute) {
        try {
            entry.put(attribute);
        } catch (LdapException e) {
            throw new ResultCodeException(ResultCodeEnum.OTHER, e.getMessage());
        }
    }
}
