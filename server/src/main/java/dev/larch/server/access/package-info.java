/**
 * Access control: {@code aci} values in the 389-DS / OpenDJ syntax ({@link AciParser}), the global
 * rules of {@code access.file}, an immutable snapshot of every rule ({@link AciSnapshot}) replaced
 * after each committed change, and {@link AccessControl}, the decisions the handlers ask for.
 */
package dev.larch.server.access;
