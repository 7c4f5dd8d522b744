/**
 * Stored group membership: {@link dev.larch.server.group.MemberOfMaintainer} keeps every entry's
 * {@code memberOf} values equal to the groups that hold it, directly or through nested groups, in
 * the write transaction of each change, and recomputes them all after an import.
 */
package dev.larch.server.group;
