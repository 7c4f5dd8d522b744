package dev.larch.server.accesslog;

import dev.larch.server.auth.PasswordAttributes;
import org.apache.directory.api.ldap.model.filter.FilterParser;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

class MaskedFilterTest {

    @ParameterizedTest
    @CsvSource(
            delimiterString = " -> ",
            value = {
                "(userPassword=secret) -> (userPassword=***)",
                "(USERPASSWORD;x-foo=secret) -> (USERPASSWORD;x-foo=***)",
                "(2.5.4.35>=secret) -> (2.5.4.35>=***)",
                "(authPassword~=secret) -> (authPassword~=***)",
                "(pwdHistory<=secret) -> (pwdHistory<=***)",
                "(userPassword=*sec*ret) -> (userPassword=***)",
                "(userPassword:octetStringMatch:=secret) -> (userPassword:octetStringMatch:=***)",
                "(&(uid=jdoe)(!(userPassword=secret))) -> (&(uid=jdoe)(!(userPassword=***)))",
                "(|(cn=a*)(userPassword=x)) -> (|(cn=a*)(userPassword=***))",
                "(uid=secret) -> (uid=secret)",
                "(userPassword=*) -> (userPassword=*)",
            })
    void passwordAssertionValuesAreMaskedAndOthersKept(String filter, String logged) throws Exception {
        assertEquals(logged, MaskedFilter.render(FilterParser.parse(filter), PasswordAttributes.STANDARD));
    }
}
