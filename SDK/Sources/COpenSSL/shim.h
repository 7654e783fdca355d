#ifndef STOREKEEPER_COPENSSL_SHIM_H
#define STOREKEEPER_COPENSSL_SHIM_H
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#endif
