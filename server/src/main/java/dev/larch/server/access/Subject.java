package dev.larch.server.access;

import java.net.InetAddress;
import java.util.List;
import java.util.Set;

import dev.larch.config.IpNetwork;
import dev.larch.server.search.Tri;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * The "who" of an ACI rule ({@code userdn}, {@code groupdn}, ...), combined with {@code and},
 * {@code or} and {@code not}. Matching is three-valued: UNDEFINED when a bound stopped the answer (a
 * group walk too deep or too wide); an allow rule then does not apply and a deny rule does.
 *
 * <p>Implementations are immutable and thread-safe.
 */
sealed interface Subject {

    Tri matches(Requester who, EntryView entry);

    /**
     * How far the answer can differ between entries for one requester, anonymous or bound: neither
     * {@code self} nor {@code userattr} matches an anonymous requester, whatever the entry.
     */
    EntryDependence dependence(boolean anonymous);

    /** {@code userdn}: one of the listed DNs (or keywords); {@code !=} negates. */
    record UserDn(List<DnPattern> dns, boolean anyone, boolean all, boolean self, boolean negated) implements Subject {
        @Override
        public Tri matches(Requester who, EntryView entry) {
            boolean hit = anyone
                    || (all && !who.isAnonymous())
                    || (self && !who.isAnonymous() && who.isEntry(entry))
                    || (!who.isAnonymous() && anyMatches(who.canonicalDn()));
            return Tri.of(hit != negated);
        }

        private boolean anyMatches(String dn) {
            for (DnPattern p : dns) {
                if (p.matches(dn)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public EntryDependence dependence(boolean anonymous) {
            return self && !anonymous ? EntryDependence.OWN_ENTRY : EntryDependence.NONE;
        }
    }

    /** {@code groupdn}: a member, directly or through nested groups, of one of the listed groups. */
    record GroupDn(List<Dn> groups, boolean negated) implements Subject {
        @Override
        public Tri matches(Requester who, EntryView entry) {
            if (who.isAnonymous()) {
                return Tri.of(negated);
            }
            Tri result = Tri.FALSE;
            for (Dn group : groups) {
                Tri member = who.memberOf(group);
                if (member == Tri.TRUE) {
                    result = Tri.TRUE;
                    break;
                }
                if (member == Tri.UNDEFINED) {
                    result = Tri.UNDEFINED;
                }
            }
            return negated ? result.not() : result;
        }

        @Override
        public EntryDependence dependence(boolean anonymous) {
            return EntryDependence.NONE;
        }
    }

    /** {@code userattr = "attr#USERDN|GROUPDN|value"}. */
    record UserAttr(String attributeOid, Kind kind, String value) implements Subject {
        enum Kind {
            /** The entry's attribute holds the requester's DN. */
            USERDN,
            /** The entry's attribute names a group the requester belongs to. */
            GROUPDN,
            /** The requester's own entry holds this value of the attribute. */
            VALUE
        }

        @Override
        public Tri matches(Requester who, EntryView entry) {
            if (who.isAnonymous()) {
                return Tri.FALSE;
            }
            return switch (kind) {
                case USERDN -> Tri.of(who.isNamedIn(entry.entry().attribute(attributeOid)));
                case GROUPDN -> who.memberOfAny(entry.entry().attribute(attributeOid));
                case VALUE -> Tri.of(who.ownEntryHolds(attributeOid, value));
            };
        }

        @Override
        public EntryDependence dependence(boolean anonymous) {
            return anonymous || kind == Kind.VALUE ? EntryDependence.NONE : EntryDependence.ANY;
        }
    }

    /** {@code ip}: the client address is one of the listed addresses or networks. */
    record Ip(List<IpNetwork> networks, boolean negated) implements Subject {
        @Override
        public Tri matches(Requester who, EntryView entry) {
            InetAddress address = who.address();
            boolean hit = false;
            if (address != null) {
                for (IpNetwork n : networks) {
                    if (n.contains(address)) {
                        hit = true;
                        break;
                    }
                }
            }
            return Tri.of(hit != negated);
        }

        @Override
        public EntryDependence dependence(boolean anonymous) {
            return EntryDependence.NONE;
        }
    }

    /** {@code authmethod}: how the client authenticated ({@code none}, {@code simple}, {@code ssl}, {@code sasl}). */
    record AuthMethod(Set<String> methods, boolean negated) implements Subject {
        @Override
        public Tri matches(Requester who, EntryView entry) {
            return Tri.of(methods.contains(who.authMethod()) != negated);
        }

        @Override
        public EntryDependence dependence(boolean anonymous) {
            return EntryDependence.NONE;
        }
    }

    /** {@code ssf}: the connection's security strength factor compared with a number. */
    record Ssf(String operator, int strength) implements Subject {
        @Override
        public Tri matches(Requester who, EntryView entry) {
            int ssf = who.ssf();
            return Tri.of(
                    switch (operator) {
                        case "=" -> ssf == strength;
                        case "!=" -> ssf != strength;
                        case ">=" -> ssf >= strength;
                        case ">" -> ssf > strength;
                        case "<=" -> ssf <= strength;
                        default -> ssf < strength;
                    });
        }

        @Override
        public EntryDependence dependence(boolean anonymous) {
            return EntryDependence.NONE;
        }
    }

    record And(Subject left, Subject right) implements Subject {
        @Override
        public Tri matches(Requester who, EntryView entry) {
            Tri l = left.matches(who, entry);
            if (l == Tri.FALSE) {
                return Tri.FALSE;
            }
            Tri r = right.matches(who, entry);
            if (r == Tri.FALSE) {
                return Tri.FALSE;
            }
            return l == Tri.TRUE && r == Tri.TRUE ? Tri.TRUE : Tri.UNDEFINED;
        }

        @Override
        public EntryDependence dependence(boolean anonymous) {
            return left.dependence(anonymous).or(right.dependence(anonymous));
        }
    }

    record Or(Subject left, Subject right) implements Subject {
        @Override
        public Tri matches(Requester who, EntryView entry) {
            Tri l = left.matches(who, entry);
            if (l == Tri.TRUE) {
                return Tri.TRUE;
            }
            Tri r = right.matches(who, entry);
            if (r == Tri.TRUE) {
                return Tri.TRUE;
            }
            return l == Tri.FALSE && r == Tri.FALSE ? Tri.FALSE : Tri.UNDEFINED;
        }

        @Override
        public EntryDependence dependence(boolean anonymous) {
            return left.dependence(anonymous).or(right.dependence(anonymous));
        }
    }

    record Not(Subject child) implements Subject {
        @Override
        public Tri matches(Requester who, EntryView entry) {
            return child.matches(who, entry).not();
        }

        @Override
        public EntryDependence dependence(boolean anonymous) {
            return child.dependence(anonymous);
        }
    }
}
