// lf's emulation of the Brook+ runtime (AMD Stream SDK 1.x) for the C++ that
// `lf-translate --brook-to-cpp` writes from a .br file: vector types,
// built-in functions and brook::Stream. Header-only C++11. The semantics are
// those of docs/design/brook.md ("Execution semantics").
//
// Streams have rank 1 to 3; dims[0] is the width (the fastest dimension) and
// elements are stored with dims[0] fastest. A domain() view shares storage
// (and error state) with its stream.
#ifndef LF_BROOK_STREAM_H
#define LF_BROOK_STREAM_H

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;

namespace brook {

namespace detail {
// Keeps a parameter out of template argument deduction.
template <class T> struct id { typedef T type; };
} // namespace detail

// Vectors: vec<T, 2..4> with members x y z w.
template <class T, int N> struct vec;

template <class T> struct vec<T, 2> {
    T x, y;
    vec() : x(), y() {}
    vec(T a, T b) : x(a), y(b) {}
    template <class U> explicit vec(const vec<U, 2>& o) : x(T(o.x)), y(T(o.y)) {}
    T at(int i) const { return i == 0 ? x : y; }
    void set(int i, T v) { (i == 0 ? x : y) = v; }
};

template <class T> struct vec<T, 3> {
    T x, y, z;
    vec() : x(), y(), z() {}
    vec(T a, T b, T c) : x(a), y(b), z(c) {}
    template <class U> explicit vec(const vec<U, 3>& o) : x(T(o.x)), y(T(o.y)), z(T(o.z)) {}
    T at(int i) const { return i == 0 ? x : i == 1 ? y : z; }
    void set(int i, T v) { (i == 0 ? x : i == 1 ? y : z) = v; }
};

template <class T> struct vec<T, 4> {
    T x, y, z, w;
    vec() : x(), y(), z(), w() {}
    vec(T a, T b, T c, T d) : x(a), y(b), z(c), w(d) {}
    template <class U> explicit vec(const vec<U, 4>& o) : x(T(o.x)), y(T(o.y)), z(T(o.z)), w(T(o.w)) {}
    T at(int i) const { return i == 0 ? x : i == 1 ? y : i == 2 ? z : w; }
    void set(int i, T v) { (i == 0 ? x : i == 1 ? y : i == 2 ? z : w) = v; }
};

// Componentwise operators: vector op vector, vector op scalar, scalar op
// vector (the scalar has the vector's element type), and op=.
#define LF_BROOK_BINOP(OP)                                                                             \
    template <class T, int N> inline vec<T, N> operator OP(const vec<T, N>& a, const vec<T, N>& b) {  \
        vec<T, N> r;                                                                                   \
        for (int i = 0; i < N; ++i) r.set(i, T(a.at(i) OP b.at(i)));                                   \
        return r;                                                                                      \
    }                                                                                                  \
    template <class T, int N>                                                                          \
    inline vec<T, N> operator OP(const vec<T, N>& a, typename detail::id<T>::type b) {                 \
        vec<T, N> r;                                                                                   \
        for (int i = 0; i < N; ++i) r.set(i, T(a.at(i) OP b));                                         \
        return r;                                                                                      \
    }                                                                                                  \
    template <class T, int N>                                                                          \
    inline vec<T, N> operator OP(typename detail::id<T>::type a, const vec<T, N>& b) {                 \
        vec<T, N> r;                                                                                   \
        for (int i = 0; i < N; ++i) r.set(i, T(a OP b.at(i)));                                         \
        return r;                                                                                      \
    }                                                                                                  \
    template <class T, int N> inline vec<T, N>& operator OP##=(vec<T, N>& a, const vec<T, N>& b) {    \
        return a = a OP b;                                                                             \
    }                                                                                                  \
    template <class T, int N>                                                                          \
    inline vec<T, N>& operator OP##=(vec<T, N>& a, typename detail::id<T>::type b) {                   \
        return a = a OP b;                                                                             \
    }
LF_BROOK_BINOP(+)
LF_BROOK_BINOP(-)
LF_BROOK_BINOP(*)
LF_BROOK_BINOP(/)
LF_BROOK_BINOP(%)
LF_BROOK_BINOP(&)
LF_BROOK_BINOP(|)
LF_BROOK_BINOP(^)
LF_BROOK_BINOP(<<)
LF_BROOK_BINOP(>>)
#undef LF_BROOK_BINOP

template <class T, int N> inline vec<T, N> operator-(const vec<T, N>& a) {
    vec<T, N> r;
    for (int i = 0; i < N; ++i) r.set(i, T(-a.at(i)));
    return r;
}
template <class T, int N> inline vec<T, N> operator+(const vec<T, N>& a) { return a; }
template <class T, int N> inline vec<T, N> operator~(const vec<T, N>& a) {
    vec<T, N> r;
    for (int i = 0; i < N; ++i) r.set(i, T(~a.at(i)));
    return r;
}

// Read swizzles of two to four components: swizzle<1, 0>(v) is v.yx.
template <int A, int B, class T, int N> inline vec<T, 2> swizzle(const vec<T, N>& v) {
    return vec<T, 2>(v.at(A), v.at(B));
}
template <int A, int B, int C, class T, int N> inline vec<T, 3> swizzle(const vec<T, N>& v) {
    return vec<T, 3>(v.at(A), v.at(B), v.at(C));
}
template <int A, int B, int C, int D, class T, int N> inline vec<T, 4> swizzle(const vec<T, N>& v) {
    return vec<T, 4>(v.at(A), v.at(B), v.at(C), v.at(D));
}

} // namespace brook

#define LF_BROOK_VECTORS(T, NAME)                                                                      \
    typedef brook::vec<T, 2> NAME##2;                                                                  \
    typedef brook::vec<T, 3> NAME##3;                                                                  \
    typedef brook::vec<T, 4> NAME##4;
LF_BROOK_VECTORS(char, char)
LF_BROOK_VECTORS(unsigned char, uchar)
LF_BROOK_VECTORS(short, short)
LF_BROOK_VECTORS(unsigned short, ushort)
LF_BROOK_VECTORS(int, int)
LF_BROOK_VECTORS(unsigned int, uint)
LF_BROOK_VECTORS(float, float)
#undef LF_BROOK_VECTORS
// Brook+ has no double3 or double4.
typedef brook::vec<double, 2> double2;

namespace brook {

// Built-in functions, for scalars and componentwise for vectors. The
// translated kernels call them as ::brook::NAME.
#define LF_BROOK_FLOAT_FN(NAME, EXPR)                                                                  \
    inline float NAME(float a) { return EXPR; }                                                        \
    inline double NAME(double a) { return EXPR; }                                                      \
    template <class T, int N> inline vec<T, N> NAME(const vec<T, N>& v) {                              \
        vec<T, N> r;                                                                                   \
        for (int i = 0; i < N; ++i) r.set(i, NAME(v.at(i)));                                           \
        return r;                                                                                      \
    }
LF_BROOK_FLOAT_FN(sqrt, std::sqrt(a))
LF_BROOK_FLOAT_FN(rsqrt, 1 / std::sqrt(a))
LF_BROOK_FLOAT_FN(sin, std::sin(a))
LF_BROOK_FLOAT_FN(cos, std::cos(a))
LF_BROOK_FLOAT_FN(exp, std::exp(a))
LF_BROOK_FLOAT_FN(log, std::log(a))
LF_BROOK_FLOAT_FN(floor, std::floor(a))
LF_BROOK_FLOAT_FN(ceil, std::ceil(a))
LF_BROOK_FLOAT_FN(fabs, std::fabs(a))
#undef LF_BROOK_FLOAT_FN

inline float abs(float a) { return std::fabs(a); }
inline double abs(double a) { return std::fabs(a); }
template <class T> inline typename std::enable_if<std::is_integral<T>::value, T>::type abs(T a) {
    return a < T(0) ? T(-a) : a;
}
template <class T, int N> inline vec<T, N> abs(const vec<T, N>& v) {
    vec<T, N> r;
    for (int i = 0; i < N; ++i) r.set(i, abs(v.at(i)));
    return r;
}

inline float pow(float a, float b) { return std::pow(a, b); }
inline double pow(double a, double b) { return std::pow(a, b); }
inline float fmod(float a, float b) { return std::fmod(a, b); }
inline double fmod(double a, double b) { return std::fmod(a, b); }

namespace detail {
// The type of a + b for two scalars (the usual arithmetic conversions).
template <class A, class B> struct common {
    typedef decltype(A() + B()) type;
};
template <class R> inline R min2(R a, R b) { return b < a ? b : a; }
template <class R> inline R max2(R a, R b) { return a < b ? b : a; }
} // namespace detail

template <class A, class B>
inline typename std::enable_if<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value,
                               typename detail::common<A, B>::type>::type
min(A a, B b) {
    typedef typename detail::common<A, B>::type R;
    return detail::min2<R>(R(a), R(b));
}
template <class A, class B>
inline typename std::enable_if<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value,
                               typename detail::common<A, B>::type>::type
max(A a, B b) {
    typedef typename detail::common<A, B>::type R;
    return detail::max2<R>(R(a), R(b));
}

} // namespace brook

namespace brook {
namespace detail {
// A vector with every component `a`.
template <class T, int N> inline vec<T, N> splat(T a) {
    vec<T, N> r;
    for (int i = 0; i < N; ++i) r.set(i, a);
    return r;
}
} // namespace detail

// Two-argument built-ins of vectors: vector-vector, vector-scalar, scalar-vector.
#define LF_BROOK_VEC_FN2(NAME, EXPR)                                                                   \
    template <class T, int N> inline vec<T, N> NAME(const vec<T, N>& a, const vec<T, N>& b) {          \
        vec<T, N> r;                                                                                   \
        for (int i = 0; i < N; ++i) {                                                                  \
            T x = a.at(i), y = b.at(i);                                                                \
            r.set(i, EXPR);                                                                            \
        }                                                                                              \
        return r;                                                                                      \
    }                                                                                                  \
    template <class T, int N>                                                                          \
    inline vec<T, N> NAME(const vec<T, N>& a, typename detail::id<T>::type b) {                        \
        return NAME(a, detail::splat<T, N>(b));                                                        \
    }                                                                                                  \
    template <class T, int N>                                                                          \
    inline vec<T, N> NAME(typename detail::id<T>::type a, const vec<T, N>& b) {                        \
        return NAME(detail::splat<T, N>(a), b);                                                        \
    }
LF_BROOK_VEC_FN2(min, detail::min2<T>(x, y))
LF_BROOK_VEC_FN2(max, detail::max2<T>(x, y))
LF_BROOK_VEC_FN2(pow, pow(x, y))
LF_BROOK_VEC_FN2(fmod, fmod(x, y))
#undef LF_BROOK_VEC_FN2

namespace detail {
// The instance of the running kernel: (x, y, z, 0).
inline vec<int, 4>& current_instance() {
    static vec<int, 4> i;
    return i;
}

// What a stream and its domain views share: elements, shape and error state.
struct StorageBase {
    unsigned rank;
    unsigned dims[3];
    int error;
    std::string log;
    StorageBase() : rank(0), error(0) { dims[0] = dims[1] = dims[2] = 1; }
    virtual ~StorageBase() {}
    void fail(const std::string& msg) {
        error = 1;
        log += msg;
        log += "\n";
    }
};

template <class T> struct Storage : StorageBase {
    std::vector<T> data;
};
} // namespace detail

// The position of the running kernel's instance in its output domain.
inline vec<int, 4> instance() { return detail::current_instance(); }

// A stream of T of rank 1 to 3 (dims[0] fastest), or a domain() view of one.
template <class T> class Stream {
  public:
    Stream(unsigned rank, const unsigned* dims) : st_(new detail::Storage<T>()), rank_(rank) {
        start_[0] = start_[1] = start_[2] = 0;
        ext_[0] = ext_[1] = ext_[2] = 1;
        if (rank < 1 || rank > 3) {
            std::ostringstream m;
            m << "stream rank " << rank << ": lf's emulation has streams of rank 1 to 3";
            st_->fail(m.str());
            ext_[0] = 0;
            return;
        }
        unsigned long long count = 1;
        for (unsigned i = 0; i < rank; ++i) {
            if (dims[i] == 0 || (rank <= 2 && dims[i] > 8192)) {
                std::ostringstream m;
                m << "stream dimension " << i << " is " << dims[i]
                  << (dims[i] == 0 ? ": dimensions are at least 1" : ": 1-D and 2-D streams hold at most 8192 per dimension");
                st_->fail(m.str());
                ext_[0] = 0;
                return;
            }
            ext_[i] = dims[i];
            st_->dims[i] = dims[i];
            count *= dims[i];
        }
        st_->rank = rank;
        st_->data.resize(count);
    }

    // Copies count() elements from host memory into the stream (or view).
    void read(const void* p) {
        const T* src = static_cast<const T*>(p);
        unsigned long long k = 0;
        for (unsigned z = 0; z < ext_[2]; ++z)
            for (unsigned y = 0; y < ext_[1]; ++y)
                for (unsigned x = 0; x < ext_[0]; ++x) at(x, y, z) = src[k++];
    }

    // Copies the stream's (or view's) elements out to host memory.
    void write(void* p) const {
        T* dst = static_cast<T*>(p);
        unsigned long long k = 0;
        for (unsigned z = 0; z < ext_[2]; ++z)
            for (unsigned y = 0; y < ext_[1]; ++y)
                for (unsigned x = 0; x < ext_[0]; ++x) dst[k++] = at(x, y, z);
    }

    // The view of the box [start, end) (arrays of rank() values, dims[0]
    // first); it shares storage and error state with this stream.
    Stream domain(const unsigned* start, const unsigned* end) const {
        Stream v(*this);
        for (unsigned i = 0; i < rank_; ++i) {
            if (start[i] >= end[i] || end[i] > ext_[i]) {
                std::ostringstream m;
                m << "domain(): dimension " << i << " range [" << start[i] << ", " << end[i]
                  << ") is empty or outside the stream's extent " << ext_[i];
                st_->fail(m.str());
                v.ext_[0] = 0;
                return v;
            }
            v.start_[i] = start_[i] + start[i];
            v.ext_[i] = end[i] - start[i];
        }
        return v;
    }

    // Nonzero after an error (of this stream, a view of it, or a kernel call
    // that used it as an output).
    int error() const { return st_->error; }
    // The errors' messages, one a line.
    const char* errorLog() const { return st_->log.c_str(); }

    // The rank.
    unsigned rank() const { return rank_; }
    // The extent of dimension i (of the view).
    unsigned extent(unsigned i) const { return ext_[i]; }
    // The number of elements (of the view).
    unsigned long long count() const {
        return (unsigned long long)ext_[0] * ext_[1] * ext_[2];
    }

    // Emulation internals, used by translated kernels.
    T& at(unsigned x, unsigned y, unsigned z) const {
        const unsigned* d = st_->dims;
        return st_->data[((unsigned long long)(start_[2] + z) * d[1] + (start_[1] + y)) * d[0] + start_[0] + x];
    }
    detail::StorageBase* storage() const { return st_.get(); }
    bool same_shape(const Stream& o) const { return rank_ == o.rank_ && same_extent(o); }
    template <class U> bool same_extent(const Stream<U>& o) const {
        return ext_[0] == o.extent(0) && ext_[1] == o.extent(1) && ext_[2] == o.extent(2);
    }
    // A copy of the view's elements in fresh storage.
    Stream snapshot() const {
        unsigned d[3] = {ext_[0], ext_[1], ext_[2]};
        Stream c(rank_, d);
        for (unsigned z = 0; z < ext_[2]; ++z)
            for (unsigned y = 0; y < ext_[1]; ++y)
                for (unsigned x = 0; x < ext_[0]; ++x) c.at(x, y, z) = at(x, y, z);
        return c;
    }

  private:
    std::shared_ptr<detail::Storage<T> > st_;
    unsigned rank_;
    unsigned start_[3];
    unsigned ext_[3];
};

// indexof(s): the position of the current element of stream s.
template <class T> inline vec<float, 4> indexof(const Stream<T>&) {
    vec<int, 4> i = instance();
    return vec<float, 4>(float(i.x), float(i.y), float(i.z), float(i.w));
}

namespace detail {

// One kernel call: the output domain, the streams that receive errors, and
// the checks of the arguments' shapes.
class Launch {
  public:
    explicit Launch(const char* kernel) : kernel_(kernel), have_domain_(false), rank_(0) {
        ext_[0] = ext_[1] = ext_[2] = 1;
    }

    // An output stream: the first sets the domain, the others must match it.
    template <class T> void output(const Stream<T>& s, const char* name) {
        outs_.push_back(s.storage());
        check_state(s, name);
        if (!have_domain_) {
            set_domain(s);
        } else if (!same(s)) {
            fail(std::string("output stream '") + name + "' has a different shape from the first output " +
                 describe(s));
        }
    }

    // A scatter output of `dims` dimensions.
    template <class T> void scatter(const Stream<T>& s, const char* name, unsigned dims) {
        outs_.push_back(s.storage());
        check_state(s, name);
        if (s.rank() != dims)
            fail(std::string("scatter output '") + name + "' is indexed with " + num(dims) +
                 " subscripts but its stream has rank " + num(s.rank()));
    }

    // An input stream: it must have the domain's shape (lf's emulation does
    // not resample); without output streams the first one sets the domain.
    template <class T> void input(const Stream<T>& s, const char* name) {
        check_state(s, name);
        if (!have_domain_) {
            set_domain(s);
        } else if (!same(s)) {
            fail(std::string("input stream '") + name + "' has a different shape from the kernel's domain " +
                 describe(s) + " (lf's emulation does not resample streams)");
        }
    }

    // A gather array of `dims` dimensions.
    template <class T> void gather(const Stream<T>& s, const char* name, unsigned dims) {
        check_state(s, name);
        if (s.rank() != dims)
            fail(std::string("gather array '") + name + "' is indexed with " + num(dims) +
                 " subscripts but its stream has rank " + num(s.rank()));
    }

    // Called after all arguments: true when the kernel can run; otherwise
    // the errors are recorded on every output stream.
    bool ok() {
        if (!have_domain_ && errors_.empty()) errors_ = "no output or input stream gives the kernel a domain";
        if (errors_.empty()) return true;
        for (size_t i = 0; i < outs_.size(); ++i) outs_[i]->fail(std::string("kernel '") + kernel_ + "': " + errors_);
        return false;
    }

    // The extent of the domain in dimension i.
    unsigned extent(unsigned i) const { return ext_[i]; }

    // What the kernel reads of `s`: `s` itself, or a copy of its elements
    // when an output of this call shares its storage (a call reads the
    // values from before the call).
    template <class T> Stream<T> source(const Stream<T>& s) const {
        for (size_t i = 0; i < outs_.size(); ++i)
            if (outs_[i] == s.storage()) return s.snapshot();
        return s;
    }

    // Sets the current instance.
    static void at(unsigned x, unsigned y, unsigned z) {
        vec<int, 4>& i = current_instance();
        i.x = int(x);
        i.y = int(y);
        i.z = int(z);
        i.w = 0;
    }

  private:
    template <class T> void set_domain(const Stream<T>& s) {
        have_domain_ = true;
        rank_ = s.rank();
        for (unsigned i = 0; i < 3; ++i) ext_[i] = s.extent(i);
    }
    template <class T> bool same(const Stream<T>& s) const {
        return s.rank() == rank_ && s.extent(0) == ext_[0] && s.extent(1) == ext_[1] && s.extent(2) == ext_[2];
    }
    template <class T> std::string describe(const Stream<T>& s) const {
        std::ostringstream m;
        m << "(" << s.extent(0);
        for (unsigned i = 1; i < s.rank(); ++i) m << "x" << s.extent(i);
        m << " vs " << ext_[0];
        for (unsigned i = 1; i < rank_; ++i) m << "x" << ext_[i];
        m << ")";
        return m.str();
    }
    template <class T> void check_state(const Stream<T>& s, const char* name) {
        if (s.error()) fail(std::string("stream '") + name + "' is in an error state: " + s.errorLog());
    }
    static std::string num(unsigned n) {
        std::ostringstream m;
        m << n;
        return m.str();
    }
    void fail(const std::string& msg) {
        if (!errors_.empty()) errors_ += "; ";
        errors_ += msg;
    }

    const char* kernel_;
    std::vector<StorageBase*> outs_;
    std::string errors_;
    bool have_domain_;
    unsigned rank_;
    unsigned ext_[3];
};

// Element access of a gather (R = T) or scatter (R = T&) array of D
// dimensions, with bounds checks: an index outside the stream prints the
// kernel, the array and the indices, and aborts.
template <class T> struct ArrayCore {
    Stream<T> s;
    const char* kernel;
    const char* kind;
    const char* name;
    unsigned dims;
    ArrayCore(const Stream<T>& st, const char* k, const char* what, const char* n, unsigned d)
        : s(st), kernel(k), kind(what), name(n), dims(d) {}
    // idx holds the subscripts in source order (the slowest dimension first).
    T& ref(const int* idx) const {
        unsigned pos[3] = {0, 0, 0};
        for (unsigned k = 0; k < dims; ++k) {
            unsigned dim = dims - 1 - k;
            if (idx[k] < 0 || unsigned(idx[k]) >= s.extent(dim)) {
                std::fprintf(stderr, "brook: kernel '%s': %s '%s' index ", kernel, kind, name);
                for (unsigned j = 0; j < dims; ++j) std::fprintf(stderr, "[%d]", idx[j]);
                std::fprintf(stderr, " is out of bounds (extents, slowest first:");
                for (unsigned j = 0; j < dims; ++j) std::fprintf(stderr, " %u", s.extent(dims - 1 - j));
                std::fprintf(stderr, ") at instance (%d, %d, %d)\n", current_instance().x, current_instance().y,
                             current_instance().z);
                std::abort();
            }
            pos[dim] = unsigned(idx[k]);
        }
        return s.at(pos[0], pos[1], pos[2]);
    }
};

template <class T, class R, int Left> struct Sub;

// The result of one more subscript: another Sub, or the element.
template <class T, class R, int Left> struct Step {
    typedef Sub<T, R, Left> type;
    static type make(const ArrayCore<T>* c, const int* idx, int n) {
        type s;
        s.core = c;
        for (int i = 0; i < 3; ++i) s.idx[i] = idx[i];
        s.n = n;
        return s;
    }
};
template <class T, class R> struct Step<T, R, 0> {
    typedef R type;
    static R make(const ArrayCore<T>* c, const int* idx, int) { return c->ref(idx); }
};

// A partly subscripted array: Left more subscripts to go.
template <class T, class R, int Left> struct Sub {
    const ArrayCore<T>* core;
    int idx[3];
    int n;
    typename Step<T, R, Left - 1>::type operator[](int i) const {
        int j[3] = {idx[0], idx[1], idx[2]};
        j[n] = i;
        return Step<T, R, Left - 1>::make(core, j, n + 1);
    }
};

// A gather (R = T) or scatter (R = T&) array of D dimensions: a[z][y][x].
template <class T, class R, int D> class Array {
  public:
    Array(const Stream<T>& s, const char* kernel, const char* kind, const char* name) : core_(s, kernel, kind, name, D) {}
    typename Step<T, R, D - 1>::type operator[](int i) const {
        int j[3] = {i, 0, 0};
        return Step<T, R, D - 1>::make(&core_, j, 1);
    }

  private:
    ArrayCore<T> core_;
};

} // namespace detail

// A gather array of D dimensions (read-only).
template <class T, int D> struct Gather : detail::Array<T, T, D> {
    Gather(const Stream<T>& s, const char* kernel, const char* name) : detail::Array<T, T, D>(s, kernel, "gather", name) {}
};
// A scatter output of D dimensions.
template <class T, int D> struct Scatter : detail::Array<T, T&, D> {
    Scatter(const Stream<T>& s, const char* kernel, const char* name) : detail::Array<T, T&, D>(s, kernel, "scatter", name) {}
};

} // namespace brook

#endif // LF_BROOK_STREAM_H
