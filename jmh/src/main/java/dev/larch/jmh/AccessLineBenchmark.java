package dev.larch.jmh;

import java.net.InetSocketAddress;
import java.text.ParseException;
import java.util.concurrent.TimeUnit;

import dev.larch.server.accesslog.AccessLogFormat;
import dev.larch.server.auth.PasswordAttributes;
import dev.larch.server.protocol.Session;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.filter.FilterParser;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchRequestImpl;
import org.apache.directory.api.ldap.model.message.SearchResultDoneImpl;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.apache.directory.api.ldap.model.name.Dn;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What one search access line costs to format, as text ({@code logging.access-log-format = text})
 * and as JSON: the work the access log adds to every operation, without the appender's I/O (the same
 * for both formats). The search is the messaging mix's typical one: an equality filter, two
 * attributes, one entry.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {Jvm.OPEN_NIO, Jvm.OPEN_NIO_CH, Jvm.NATIVE_ACCESS, Jvm.HEAP_MIN, Jvm.HEAP_MAX, Jvm.PRE_TOUCH})
// Jackson's generator needs a longer warm-up than the StringBuilder path before C2 has compiled it.
@Warmup(iterations = 10, time = 2)
@Measurement(iterations = 5, time = 2)
public class AccessLineBenchmark {
    private Session session;
    private SearchRequestImpl search;
    private SearchResultDoneImpl done;

    @Setup(Level.Trial)
    public void setUp() throws LdapException, ParseException {
        session = new Session(7, new InetSocketAddress("127.0.0.1", 50312));
        search = new SearchRequestImpl();
        search.setMessageId(2);
        search.setBase(new Dn("ou=people,dc=example,dc=com"));
        search.setScope(SearchScope.SUBTREE);
        search.setFilter(FilterParser.parse("(uid=user012345)"));
        search.addAttributes("cn", "mail");
        done = new SearchResultDoneImpl(2);
        done.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
    }

    @Benchmark
    public String searchLineText() {
        return AccessLogFormat.TEXT.operationLine(
                session, search, done, 1, System.nanoTime(), PasswordAttributes.STANDARD);
    }

    @Benchmark
    public String searchLineJson() {
        return AccessLogFormat.JSON.operationLine(
                session, search, done, 1, System.nanoTime(), PasswordAttributes.STANDARD);
    }
}
