package dev.larch.server.directory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.larch.server.error.ResultCodeException;
import org.apache.directory.api.ldap.model.constants.SchemaConstants;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.name.Ava;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.ObjectClass;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.apache.directory.api.ldap.model.schema.UsageEnum;

/**
 * Checks a complete entry against the schema (RFC 4512 section 4.1 rules) before it is stored:
 * known object classes with a structural one, required and allowed attributes, single-valued
 * attributes and the naming attributes.
 *
 * <p>Thread-safe: reads the schema only.
 */
public final class SchemaChecker {
    private final SchemaManager schema;
    private final AttributeType objectClassType;

    public SchemaChecker(SchemaManager schema) {
        this.schema = schema;
        this.objectClassType = schema.getAttributeType(SchemaConstants.OBJECT_CLASS_AT);
    }

    /**
     * Adds the superclasses of the entry's object classes that it does not list: RFC 4512 section
     * 2.4.1 makes them implicitly present, and without the values (objectClass=person) would miss
     * entries added with only inetOrgPerson. Unknown classes are left for {@link #check} to report.
     */
    public void addSuperclasses(Entry entry) {
        Attribute objectClasses = entry.get(objectClassType);
        if (objectClasses == null) {
            return;
        }
        // Classes by OID: a class the entry lists, by any of its names or its OID, is there. Asking
        // the attribute instead built and normalized a value per superclass name, 7% of the writer's
        // CPU under the modify mix (JFR), where every superclass is already there.
        Set<String> present = new HashSet<>();
        Deque<ObjectClass> pending = new ArrayDeque<>();
        for (Value value : objectClasses) {
            ObjectClass oc = lookup(value.getString());
            if (oc != null) {
                present.add(oc.getOid());
                pending.addAll(oc.getSuperiors());
            }
        }
        try {
            while (!pending.isEmpty()) {
                ObjectClass oc = pending.pop();
                if (present.add(oc.getOid())) {
                    objectClasses.add(oc.getName());
                    pending.addAll(oc.getSuperiors());
                }
            }
        } catch (LdapException e) {
            throw new ResultCodeException(
                    ResultCodeEnum.OTHER, "cannot add the superclasses of the entry's object classes");
        }
    }

    /**
     * The name of the entry's structural object class (X.501 {@code structuralObjectClass}): of the
     * structural classes it names (superclasses added), the most derived; null when it names none.
     * When two unrelated structural classes are named (a schema error slapd refuses), the first in
     * the entry wins.
     */
    public String structuralClass(Entry entry) {
        Attribute objectClasses = entry.get(objectClassType);
        if (objectClasses == null) {
            return null;
        }
        List<ObjectClass> structural = new ArrayList<>();
        for (Value value : objectClasses) {
            ObjectClass oc = lookup(value.getString());
            if (oc != null && oc.isStructural()) {
                structural.add(oc);
            }
        }
        ObjectClass best = null;
        for (ObjectClass candidate : structural) {
            if (best == null || derivesFrom(candidate, best)) {
                best = candidate;
            }
        }
        return best == null ? null : best.getName();
    }

    private static boolean derivesFrom(ObjectClass oc, ObjectClass ancestor) {
        Deque<ObjectClass> pending = new ArrayDeque<>(oc.getSuperiors());
        while (!pending.isEmpty()) {
            ObjectClass sup = pending.pop();
            if (sup.getOid().equals(ancestor.getOid())) {
                return true;
            }
            pending.addAll(sup.getSuperiors());
        }
        return false;
    }

    /** Throws an {@link ResultCodeException} naming the first rule {@code entry} breaks. */
    public void check(Entry entry) {
        Attribute objectClasses = entry.get(objectClassType);
        if (objectClasses == null || objectClasses.size() == 0) {
            throw violation("no objectClass attribute");
        }
        Set<ObjectClass> closure = closure(objectClasses);
        boolean structural = false;
        boolean extensible = false;
        Set<String> allowed = new HashSet<>();
        for (ObjectClass oc : closure) {
            structural |= oc.isStructural();
            extensible |= SchemaConstants.EXTENSIBLE_OBJECT_OC.equalsIgnoreCase(oc.getName());
            for (AttributeType must : oc.getMustAttributeTypes()) {
                if (entry.get(must) == null) {
                    throw violation("object class '" + oc.getName() + "' requires attribute '" + must.getName() + "'");
                }
                allowed.add(must.getOid());
            }
            for (AttributeType may : oc.getMayAttributeTypes()) {
                allowed.add(may.getOid());
            }
        }
        if (!structural) {
            throw violation("no structural object class provided");
        }
        for (Attribute attribute : entry) {
            AttributeType type = attribute.getAttributeType();
            if (type.isSingleValued() && attribute.size() > 1) {
                throw new ResultCodeException(
                        ResultCodeEnum.CONSTRAINT_VIOLATION,
                        "attribute '" + attribute.getUpId() + "' cannot have multiple values");
            }
            if (type.getUsage() != UsageEnum.USER_APPLICATIONS || extensible) {
                continue;
            }
            if (!allowed.contains(type.getOid()) && !allowedBySuperior(type, allowed)) {
                throw violation("attribute '" + attribute.getUpId() + "' not allowed");
            }
        }
        for (Ava ava : entry.getDn().getRdn()) {
            Attribute naming = entry.get(ava.getAttributeType());
            if (naming == null || !naming.contains(ava.getValue())) {
                throw new ResultCodeException(
                        ResultCodeEnum.NAMING_VIOLATION,
                        "naming attribute '" + ava.getType() + "' is not present in entry");
            }
        }
    }

    /** A subtype (say cn) is allowed wherever one of its supertypes (name) is. */
    private static boolean allowedBySuperior(AttributeType type, Set<String> allowed) {
        for (AttributeType sup = type.getSuperior(); sup != null; sup = sup.getSuperior()) {
            if (allowed.contains(sup.getOid())) {
                return true;
            }
        }
        return false;
    }

    private Set<ObjectClass> closure(Attribute objectClasses) {
        Set<ObjectClass> out = new HashSet<>();
        Deque<ObjectClass> pending = new ArrayDeque<>();
        for (Value value : objectClasses) {
            ObjectClass oc = lookup(value.getString());
            if (oc == null) {
                throw violation("unknown object class '" + value.getString() + "'");
            }
            pending.add(oc);
        }
        while (!pending.isEmpty()) {
            ObjectClass oc = pending.pop();
            if (out.add(oc)) {
                pending.addAll(oc.getSuperiors());
            }
        }
        return out;
    }

    private ObjectClass lookup(String name) {
        try {
            return schema.lookupObjectClassRegistry(name);
        } catch (Exception e) {
            return null;
        }
    }

    private static ResultCodeException violation(String message) {
        return new ResultCodeException(ResultCodeEnum.OBJECT_CLASS_VIOLATION, message);
    }
}
