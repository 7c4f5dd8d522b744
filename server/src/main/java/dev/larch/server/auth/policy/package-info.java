/**
 * Password policy (draft-behera-ldap-password-policy): policies read from {@code pwdPolicy} entries,
 * lockout after failed binds, expiry and grace logins, quality and history checks on password
 * changes, the must-change state after an administrator's reset, and the password policy control
 * (1.3.6.1.4.1.42.2.27.8.5.1) that reports all of them to clients that ask.
 */
package dev.larch.server.auth.policy;
