#!/usr/bin/perl
# Calls the encoded tracker contract (test/fixtures/encoded/tracker.wsdl) through Perl's SOAP::Lite
# (libsoap-lite-perl), the way its users call rpc/encoded services: an explicit proxy and uri (the WSDL's
# address and namespace) and SOAP::Data values typed by hand after the contract (xsi:type on every value, each
# array a SOAP-ENC:Array with its arrayType), the SOAPAction of the WSDL ("urn:tracker#OP").
#
# Reads {"wsdl": URL, "calls": [{"op": NAME, "args": {PART: VALUE, ...}}, ...]} on stdin (the WSDL is read for its
# soap:address only), VALUES in the normalized JSON form of test/system/encoded-clients.test.ts, and prints
# {"client": "SOAP::Lite VERSION", "results": [...]}:
#   {"ok": VALUE, "sent": XML}   {"fault": {"code", "message", "detail"}, "sent": XML}   {"error": {"type", "message"}}
use strict;
use warnings;
use JSON::PP;
use LWP::UserAgent;
use MIME::Base64;
use SOAP::Lite;

my $NS = 'urn:tracker';
my $json = JSON::PP->new->utf8->canonical;
my $job = $json->decode(do { local $/; <STDIN> });

# The contract's types: a struct's members in order with their types; an array's item type.
my %STRUCTS = (
  AccountData => [[id => 'xsd:int'], [name => 'xsd:string'], [email => 'xsd:string']],
  NoteData    => [[id => 'xsd:int'], [reporter => 'AccountData'], [text => 'xsd:string']],
  IssueData   => [
    [id => 'xsd:int'], [summary => 'xsd:string'], [reporter => 'AccountData'], [handler => 'AccountData'],
    [notes => 'ArrayOf_NoteData'], [tags => 'ArrayOf_string'], [sticky => 'xsd:boolean'],
  ],
);
my %ARRAYS = (
  ArrayOf_NoteData => 'NoteData', ArrayOf_IssueData => 'IssueData', ArrayOf_string => 'xsd:string',
  ArrayOf_int => 'xsd:int', ArrayOf_ArrayOf_int => 'ArrayOf_int',
);
my %PARTS = (
  echoScalars => [[text => 'xsd:string'], [count => 'xsd:int'], [flag => 'xsd:boolean'], [when => 'xsd:dateTime'],
                  [ratio => 'xsd:double'], [data => 'xsd:base64Binary']],
  echoIssue => [[issue => 'IssueData']],
  echoIssues => [[issues => 'ArrayOf_IssueData']],
  echoStrings => [[values => 'ArrayOf_string']],
  echoMatrix => [[rows => 'ArrayOf_ArrayOf_int']],
  getVersion => [],
  touchIssue => [[id => 'xsd:int']],
);

sub qualified { my $type = shift; $type =~ /^xsd:/ ? $type : "tns:$type" }

# One value as SOAP::Data of the contract's type, named NAME.
sub typed {
  my ($name, $type, $value) = @_;
  if (!defined $value) {
    return SOAP::Data->name($name)->type(qualified($type))->value(undef);
  }
  if (my $fields = $STRUCTS{$type}) {
    my @members = map { typed($_->[0], $_->[1], $value->{$_->[0]}) } @$fields;
    return SOAP::Data->name($name => \SOAP::Data->value(@members))->type("tns:$type");
  }
  if (my $item = $ARRAYS{$type}) {
    my @items = map { typed('item', $item, $_) } @$value;
    return SOAP::Data->name($name => \SOAP::Data->value(@items))->type("tns:$type")
      ->attr({'soapenc:arrayType' => qualified($item) . '[' . scalar(@items) . ']'});
  }
  if ($type eq 'xsd:boolean') { return SOAP::Data->name($name)->type($type)->value($value ? 'true' : 'false') }
  if ($type eq 'xsd:base64Binary') { return SOAP::Data->name($name)->type('base64Binary')->value(decode_base64($value)) }
  return SOAP::Data->name($name)->type($type =~ s/^xsd://r)->value($value);
}

# What SOAP::Lite decoded, normalized: its blessed hashes and arrays plain, numbers and booleans as JSON's.
sub normalized {
  my ($value, $name, $type) = @_;
  return undef unless defined $value;
  $type //= '';
  if (ref $value && $value =~ /HASH/) {
    my $fields = $STRUCTS{$type} // [];
    my %types = map { ($_->[0] => $_->[1]) } @$fields;
    return { map { ($_ => normalized($value->{$_}, $_, $types{$_})) } keys %$value };
  }
  if (ref $value && $value =~ /ARRAY/) {
    my $item = $ARRAYS{$type} // '';
    return [map { normalized($_, undef, $item) } @$value];
  }
  return $value + 0 if $type eq 'xsd:int' || $type eq 'xsd:double';
  return ($value eq 'true' || $value eq '1') ? JSON::PP::true : JSON::PP::false if $type eq 'xsd:boolean';
  return encode_base64($value, '') if $type eq 'xsd:base64Binary';
  if ($type eq 'xsd:dateTime' && $value =~ /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.\d+)?(Z|[+-]00:00)?$/) { return "$1Z" }
  return "$value";
}

my %RESULT_TYPES = (
  echoScalars => 'ScalarsData', echoIssue => 'IssueData', echoIssues => 'ArrayOf_IssueData',
  echoStrings => 'ArrayOf_string', echoMatrix => 'ArrayOf_ArrayOf_int', getVersion => 'xsd:string',
);
$STRUCTS{ScalarsData} = $PARTS{echoScalars};
$STRUCTS{FaultData} = [[id => 'xsd:int'], [reason => 'xsd:string']];

my $wsdl = LWP::UserAgent->new(timeout => 30)->get($job->{wsdl});
die 'could not read the WSDL: ' . $wsdl->status_line . "\n" unless $wsdl->is_success;
my ($address) = $wsdl->decoded_content =~ /<soap:address\s+location="([^"]+)"/ or die "no soap:address in the WSDL\n";

my $sent;
my $client = SOAP::Lite->proxy($address, timeout => 60)->uri($NS)->on_action(sub { "$NS#$_[1]" })->on_fault(sub { });
$client->serializer->register_ns($NS, 'tns');
$client->transport->add_handler(request_send => sub { $sent = $_[0]->content; return });

my @results;
for my $call (@{$job->{calls}}) {
  $sent = undef;
  my %result;
  eval {
    my @parts = map { typed($_->[0], $_->[1], $call->{args}{$_->[0]}) } @{$PARTS{$call->{op}}};
    my $som = $client->call($call->{op} => @parts);
    if (!ref $som) {
      $result{error} = {type => 'transport', message => $client->transport->status};
    } elsif ($som->fault) {
      my $detail = $som->faultdetail;
      $detail = (values %$detail)[0] if ref $detail eq 'HASH' && keys %$detail == 1;
      $result{fault} = {code => $som->faultcode, message => $som->faultstring, detail => normalized($detail, undef, 'FaultData')};
    } else {
      my $type = $RESULT_TYPES{$call->{op}};
      $result{ok} = $type ? normalized($som->result, undef, $type) : undef;
    }
    1;
  } or $result{error} = {type => 'die', message => "$@"};
  $result{sent} = $sent;
  push @results, \%result;
}
print $json->encode({client => "SOAP::Lite $SOAP::Lite::VERSION", results => \@results});
