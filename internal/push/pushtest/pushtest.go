// Package pushtest runs, for tests, HTTPS servers on 127.0.0.1 that speak
// the push providers' wire formats the way the real services do: ntfy's
// publish API, Pushover's messages API and a webhook that takes tuios's
// JSON body. Each checks what arrives as the service would (the token,
// the form fields and their limits, the priority) and records it; each
// can also be slow, fail, redirect or never answer. A CA of its own
// signs their certificates: a test writes it to a file and points
// SSL_CERT_FILE at it, so the code under test trusts it through the
// system's store, as it would a real provider's.
//
// It owns nothing the binary uses.
package pushtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"time"
)

// CA is a certificate authority for tests. Its servers' certificates
// name 127.0.0.1, ::1, localhost and ProxiedHost.
type CA struct {
	// PEM is the CA's certificate, for SSL_CERT_FILE.
	PEM  []byte
	leaf tls.Certificate
	pool *x509.CertPool
}

// NewCA makes a CA and one server certificate signed by it.
func NewCA() (*CA, error) {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "tuios pushtest CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature, BasicConstraintsValid: true, IsCA: true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback}, DNSNames: []string{"localhost", ProxiedHost},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AddCert(caCert)
	return &CA{
		PEM:  pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
		leaf: tls.Certificate{Certificate: [][]byte{der, caDER}, PrivateKey: key},
		pool: pool,
	}, nil
}

// ProxiedHost is a name no resolver knows: a request to it reaches a
// test server only through Proxy, which maps it to 127.0.0.1 (Go never
// proxies a loopback address, so a proxy test needs a name).
const ProxiedHost = "push.test"

// WriteFile writes the CA's certificate to path (for SSL_CERT_FILE).
func (ca *CA) WriteFile(path string) error { return os.WriteFile(path, ca.PEM, 0o644) }

// Pool is a pool holding only the CA.
func (ca *CA) Pool() *x509.CertPool { return ca.pool }

// start runs h over TLS on 127.0.0.1 with the CA's certificate.
func (ca *CA) start(h http.Handler) *httptest.Server {
	s := httptest.NewUnstartedServer(h)
	s.Config.ErrorLog = log.New(io.Discard, "", 0) // a client that hangs up mid-handshake is a test's business
	s.TLS = &tls.Config{Certificates: []tls.Certificate{ca.leaf}}
	s.StartTLS()
	return s
}
