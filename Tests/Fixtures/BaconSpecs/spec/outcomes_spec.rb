describe 'Outcomes' do
  it 'passes' do
    (1 + 1).should.equal 2
  end

  it 'fails' do
    (1 + 1).should.equal 3
  end

  it 'raises' do
    raise ArgumentError, 'boom'
  end

  it 'asserts nothing' do
    1 + 1
  end
end
