package dev.larch.config;

import java.util.List;

/**
 * The rules that keep entries consistent with each other.
 *
 * @param referenceAttributes {@code integrity.reference-attributes}: DN-valued attributes kept
 *     pointing at existing entries: a delete removes the DN from them, a rename renames it
 * @param uniqueAttributes {@code integrity.unique-attributes}: attributes whose values no two
 *     entries of the suffix may share
 */
public record IntegrityRules(List<String> referenceAttributes, List<String> uniqueAttributes) {
    /** No rules: for code that drives handlers without a configuration (benchmarks). */
    public static final IntegrityRules NONE = new IntegrityRules(List.of(), List.of());

    public IntegrityRules {
        referenceAttributes = List.copyOf(referenceAttributes);
        uniqueAttributes = List.copyOf(uniqueAttributes);
    }
}
