package dev.larch.bench.run;

import java.util.List;
import java.util.Map;

/**
 * What a correct search answer holds beyond its entry count, worked out from the data file when
 * the request is built.
 *
 * @param dn the DN the single entry must have (the person or group asked for), or null
 * @param values attribute values that entry must hold (a kept person attribute the request asks
 *     for, e.g. mail, with the data file's value); empty when not checked
 * @param members every member the group entry must list, exactly (from the data file), or null
 *     when the request does not ask for members
 * @param prefixes attribute to prefix every returned entry must start with (case-insensitive), from
 *     a wildcard filter such as {@code (sn=Abe*)}; empty when none
 * @param required attributes every returned entry must hold a value of
 * @param baseAbsent the base is absent by design ({@code ${absentPersonDn}}): noSuchObject is then
 *     the right answer, and only then
 */
record Expected(
        String dn,
        Map<String, String> values,
        List<String> members,
        Map<String, String> prefixes,
        List<String> required,
        boolean baseAbsent) {

    /** Only the entry count is checked. */
    static final Expected SHAPE = new Expected(null, Map.of(), null, Map.of(), List.of(), false);
}
