import { describe, expect, it } from 'vitest';
import { isPublicAddress, webAddressProblem } from '../../shared/web-address.js';

describe('public addresses', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '0.0.0.0',
    '10.20.30.40',
    '100.100.100.200',
    '169.254.169.254',
    '169.254.170.2',
    '172.31.255.255',
    '192.168.0.1',
    '198.18.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '::7f00:1',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::',
    '::ffff:0:7f00:1',
    '::ffff:0:a9fe:a9fe',
    '2001::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '192.88.99.1',
    'fd00:ec2::254',
    'fe80::1',
    'fec0::1',
    'ff02::1',
    'not-an-address',
    // Documentation, benchmarking, reserved and special-purpose ranges (IANA's registries, as ipaddr.js names them).
    '192.0.2.10',
    '198.51.100.7',
    '203.0.113.9',
    '240.0.0.1',
    '192.31.196.1',
    '192.52.193.1',
    '192.175.48.1',
    '2001:db8::1',
    '2001:2::1',
    '2001:3::1',
    '2001:4:112::1',
    '2001:10::1',
    '2001:20::1',
    '2001:30::1',
    '2001:1ff::1',
    '3fff::1',
    '5f00::1',
    '2620:4f:8000::1',
    '64:ff9b:1::a9fe:a9fe',
    '100::1',
  ])('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '52.94.76.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '2001:4860:4860::8888',
    '192.88.98.1',
    '2a00:1450:4001::200e',
    '2001:200::1',
  ])('takes %s', (address) => expect(isPublicAddress(address)).toBe(true));

  it('judges the host a URL parses to, whatever its spelling', () => {
    const onAws = (url: string) => webAddressProblem(new URL(url), false);
    for (const url of ['https://0177.0.0.1/', 'https://0x7f000001/', 'https://127.1/', 'https://LOCALHOST/', 'https://[0:0:0:0:0:0:0:1]/'])
      expect(onAws(url), url).toMatch(/^must be https on a public host \(not a local name/);
    expect(onAws('https://hooks.example.com./x')).toBeUndefined();
    expect(webAddressProblem(new URL('http://[::1]:8006/x'), true)).toBeUndefined();
    expect(webAddressProblem(new URL('http://hooks.example.com/'), true)).toBe(
      'must be https (http only for localhost on a local deployment)',
    );
  });
});
