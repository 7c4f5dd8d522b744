package dev.larch.server.accesslog;

import dev.larch.schema.LarchSchema;
import dev.larch.server.auth.PasswordAttributes;
import org.apache.directory.api.ldap.model.filter.ExprNode;
import org.apache.directory.api.ldap.model.filter.FilterParser;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

class MaskedFilterTest {
    private static final SchemaManager SCHEMA = LarchSchema.standard();

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

    /** Filters without password material read as the LDAP API writes them, with or without the schema. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "(uid=jdoe)",
                "(UID=JDoe)",
                "(mail=user.012345@example.com)",
                "(cn=a\\28b\\29)",
                "(cn=star\\2a)",
                "(cn=back\\5cslash)",
                "(cn=nul\\00)",
                "(cn=caf\\c3\\a9)",
                "(cn=tab\\09)",
                "(cn=del\\7f)",
                "(cn= spaced  value )",
                "(cn=)",
                "(&(uid=jdoe)(mail=j@x)(!(cn=a b)))",
                "(|(objectClass=person)(cn=m)(description=x=y))",
                "(0.9.2342.19200300.100.1.1=jdoe)",
            })
    void otherFiltersReadAsTheApiWritesThem(String filter) throws Exception {
        for (ExprNode node : new ExprNode[] {FilterParser.parse(filter), FilterParser.parse(SCHEMA, filter)}) {
            assertEquals(node.toString(), MaskedFilter.render(node, PasswordAttributes.STANDARD), filter);
        }
    }

    @Test
    void anAnnotatedNodeKeepsItsAnnotation() throws Exception {
        ExprNode node = FilterParser.parse(SCHEMA, "(uid=jdoe)");
        node.set("count", 12L);
        assertEquals(node.toString(), MaskedFilter.render(node, PasswordAttributes.STANDARD));
        assertEquals("(uid=jdoe:[12])", MaskedFilter.render(node, PasswordAttributes.STANDARD));
    }
}
