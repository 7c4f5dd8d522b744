package dev.larch.server.search;

import java.util.List;

import dev.larch.server.store.IdSet;

/**
 * What {@link SearchPlanner} decided for one filter: the candidate IDs it read, or none (the scope
 * must be walked), together with the steps that produced them. The explanation is rendered from
 * those same steps on demand, so it can never disagree with the candidates, and a search that
 * never asks for it pays only for the step objects.
 *
 * <p>Immutable and thread-safe.
 */
public final class Plan {
    /** What one step of a plan did. */
    enum Step {
        /** One key of the equality index per OID. */
        EQUALITY("eq"),
        /** The presence index's single key per OID. */
        PRESENCE("pres"),
        /** A key-prefix range of the equality index (an initial-only substring). */
        PREFIX("eq-prefix"),
        /** Substring-index grams, intersected. */
        SUBSTRING("sub"),
        /** A half-open range of the ordering index ({@code >=} or {@code <=}). */
        ORDERING("ord"),
        /** A {@code >=} and a {@code <=} of one attribute read as one bounded range. */
        RANGE("range"),
        AND("and"),
        OR("or"),
        /** Group members or groups through nested groups, read from the member indexes. */
        IN_CHAIN("in-chain"),
        /** Nothing indexed answers this filter: the scope is walked. */
        NOT_INDEXED("scan"),
        /** The filter can never be true: no candidates, nothing read. */
        EMPTY("empty");

        private final String label;

        Step(String label) {
            this.label = label;
        }
    }

    private static final Plan NOT_INDEXED = new Plan(Step.NOT_INDEXED, null, null, List.of(), 0);

    private final Step step;
    private final String detail;
    private final IdSet ids;
    private final List<Plan> parts;
    private final int unread;

    private Plan(Step step, String detail, IdSet ids, List<Plan> parts, int unread) {
        this.step = step;
        this.detail = detail;
        this.ids = ids;
        this.parts = parts;
        this.unread = unread;
    }

    /** An index read of {@code attribute}; {@code ids} null when a key held more than the entry limit. */
    static Plan indexRead(Step step, String attribute, IdSet ids) {
        return new Plan(step, attribute, ids, List.of(), 0);
    }

    static Plan notIndexed() {
        return NOT_INDEXED;
    }

    static Plan empty(String reason) {
        return new Plan(Step.EMPTY, reason, IdSet.EMPTY, List.of(), 0);
    }

    /**
     * An AND: the terms read in the order they were read, and how many were left to the filter
     * because the set was already small.
     */
    static Plan and(List<Plan> read, int unread, IdSet ids) {
        return new Plan(Step.AND, null, ids, read, unread);
    }

    static Plan or(List<Plan> parts, IdSet ids) {
        return new Plan(Step.OR, null, ids, parts, 0);
    }

    /**
     * The candidate IDs, a superset of the matches, in ascending order; null when the search must
     * walk its scope instead.
     */
    public IdSet ids() {
        return ids;
    }

    /** Whether the index answered: false means the scope is walked and every entry checked. */
    public boolean usesIndexes() {
        return ids != null;
    }

    /**
     * How the candidates were found, for tests, logs and operators. For example {@code eq(uid)},
     * {@code and[eq(objectClass), range(createTimestamp)]}, {@code or[eq(uid), scan]} (an OR with an
     * unindexed term walks the scope), {@code eq(objectClass) over limit} (the key held more IDs
     * than {@code limits.index-entry-limit}, so it was not used) or {@code and[eq(uid), +1 unread]}
     * (the AND stopped early; the filter checks the term it did not read).
     */
    public String explanation() {
        StringBuilder out = new StringBuilder();
        render(out);
        return out.toString();
    }

    private void render(StringBuilder out) {
        out.append(step.label);
        switch (step) {
            case AND, OR -> {
                out.append('[');
                for (int i = 0; i < parts.size(); i++) {
                    if (i > 0) {
                        out.append(", ");
                    }
                    parts.get(i).render(out);
                }
                if (unread > 0) {
                    out.append(parts.isEmpty() ? "" : ", ")
                            .append('+')
                            .append(unread)
                            .append(" unread");
                }
                out.append(']');
            }
            case NOT_INDEXED -> {}
            default -> {
                out.append('(').append(detail).append(')');
                if (ids == null) {
                    out.append(" over limit");
                }
            }
        }
    }

    @Override
    public String toString() {
        return explanation();
    }
}
